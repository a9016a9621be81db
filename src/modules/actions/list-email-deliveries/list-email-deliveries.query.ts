import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { ListEmailDeliveriesParams } from '../dto/email-delivery.request.dto';
import type { EmailDeliveryResponse } from '../dto/email-delivery.response.dto';

export class ListEmailDeliveriesQuery extends Query<NewestFirstPage<EmailDeliveryResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListEmailDeliveriesParams,
  ) {
    super();
  }
}
