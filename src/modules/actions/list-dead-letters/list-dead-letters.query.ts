import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { ListDeadLettersParams } from '../dto/dead-letter.request.dto';
import type { DeadLetterResponse } from '../dto/dead-letter.response.dto';

export class ListDeadLettersQuery extends Query<NewestFirstPage<DeadLetterResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListDeadLettersParams,
  ) {
    super();
  }
}
