import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';

export class GetRecipientBindingQuery extends Query<RecipientBindingResponse> {
  constructor(
    readonly caller: Caller,
    readonly recipientBindingId: string,
  ) {
    super();
  }
}
