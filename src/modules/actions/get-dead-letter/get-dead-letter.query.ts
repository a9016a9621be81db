import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeadLetterDetailResponse } from '../dto/dead-letter.response.dto';

export class GetDeadLetterQuery extends Query<DeadLetterDetailResponse> {
  constructor(
    readonly caller: Caller,
    readonly deadLetterId: string,
  ) {
    super();
  }
}
