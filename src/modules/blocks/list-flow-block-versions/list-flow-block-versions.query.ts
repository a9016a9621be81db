import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { FlowBlockVersionSummary } from '../dto/flow-block-version.response.dto';
import type { ListFlowBlockVersionsParams } from '../dto/flow-block-version.request.dto';

export class ListFlowBlockVersionsQuery extends Query<NewestFirstPage<FlowBlockVersionSummary>> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly params: ListFlowBlockVersionsParams,
  ) {
    super();
  }
}
