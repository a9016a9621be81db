import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Page } from '../../../shared/pagination/page';
import type { ListRecipientBindingsParams } from '../dto/recipient-binding.request.dto';
import type { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';

export class ListRecipientBindingsQuery extends Query<Page<RecipientBindingResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListRecipientBindingsParams,
  ) {
    super();
  }
}
