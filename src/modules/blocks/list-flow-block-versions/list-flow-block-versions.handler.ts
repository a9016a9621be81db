import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { FlowBlockVersionSummary } from '../dto/flow-block-version.response.dto';
import { FlowBlockStore } from '../persistence/flow-block.store';
import { ListFlowBlockVersionsQuery } from './list-flow-block-versions.query';

/** A block's versions, newest first, without their sources; a bad cursor is a 400 before the block's 404. */
@QueryHandler(ListFlowBlockVersionsQuery)
export class ListFlowBlockVersionsHandler implements IQueryHandler<ListFlowBlockVersionsQuery, NewestFirstPage<FlowBlockVersionSummary>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ caller, flowBlockId, params }: ListFlowBlockVersionsQuery): Promise<NewestFirstPage<FlowBlockVersionSummary>> {
    const request = {
      actorId: caller.principal.userId,
      scope: `flow-blocks/${flowBlockId}/versions`,
      limit: params.limit,
      cursor: params.cursor,
      status: params.status,
    };
    this.store.versions.verify(request);
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const page = await this.store.versions.list(this.dataSource.manager, flowBlockId, request);
    return { ...page, items: page.items.map((version) => FlowBlockVersionSummary.summaryOf(version.row)) };
  }
}
