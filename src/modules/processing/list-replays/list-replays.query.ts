import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { NewestFirstPage, NewestFirstPageParams } from '../../../shared/pagination/newest-first-page';
import type { ReplayResponse } from '../dto/replay.response.dto';

export class ListReplaysQuery extends Query<NewestFirstPage<ReplayResponse>> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly params: NewestFirstPageParams,
  ) {
    super();
  }
}
