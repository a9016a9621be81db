import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeadLetterDetailResponse } from '../dto/dead-letter.response.dto';
import { DeliveryLogReader } from '../persistence/delivery-log.reader';
import { GetDeadLetterQuery } from './get-dead-letter.query';

@QueryHandler(GetDeadLetterQuery)
export class GetDeadLetterHandler implements IQueryHandler<GetDeadLetterQuery, DeadLetterDetailResponse> {
  constructor(private readonly reader: DeliveryLogReader) {}

  async execute({ caller, deadLetterId }: GetDeadLetterQuery): Promise<DeadLetterDetailResponse> {
    return DeadLetterDetailResponse.detailOf(await this.reader.deadLetter(caller, deadLetterId));
  }
}
