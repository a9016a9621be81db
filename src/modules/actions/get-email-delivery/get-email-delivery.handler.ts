import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EmailDeliveryDetailResponse } from '../dto/email-delivery.response.dto';
import { DeliveryLogReader } from '../persistence/delivery-log.reader';
import { GetEmailDeliveryQuery } from './get-email-delivery.query';

@QueryHandler(GetEmailDeliveryQuery)
export class GetEmailDeliveryHandler implements IQueryHandler<GetEmailDeliveryQuery, EmailDeliveryDetailResponse> {
  constructor(private readonly reader: DeliveryLogReader) {}

  async execute({ caller, deliveryId }: GetEmailDeliveryQuery): Promise<EmailDeliveryDetailResponse> {
    return EmailDeliveryDetailResponse.detailOf(await this.reader.delivery(caller, deliveryId));
  }
}
