import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { EmailDeliveryDetailResponse } from '../dto/email-delivery.response.dto';

export class GetEmailDeliveryQuery extends Query<EmailDeliveryDetailResponse> {
  constructor(
    readonly caller: Caller,
    readonly deliveryId: string,
  ) {
    super();
  }
}
