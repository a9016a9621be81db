import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowVersionResponse } from '../dto/flow-version.response.dto';
import { FlowVersionStore } from '../persistence/flow-version.store';
import { ListFlowVersionsQuery } from './list-flow-versions.query';

/** The flow's versions, newest first (versionNumber desc), optionally one status; no total. */
@QueryHandler(ListFlowVersionsQuery)
export class ListFlowVersionsHandler implements IQueryHandler<ListFlowVersionsQuery, NewestFirstPage<FlowVersionResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
  ) {}

  async execute({ caller, flowId, params }: ListFlowVersionsQuery): Promise<NewestFirstPage<FlowVersionResponse>> {
    const request = { actorId: caller.principal.userId, scope: `flows/${flowId}/versions`, limit: params.limit, cursor: params.cursor, status: params.status };
    this.versions.verify(request);
    const { access } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const page = await this.versions.list(this.dataSource.manager, flowId, request);
    return { ...page, items: page.items.map((version) => FlowVersionResponse.of(version)) };
  }
}
