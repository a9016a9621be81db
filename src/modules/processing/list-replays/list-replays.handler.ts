import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { NewestFirstPaginator, WindowedPageRequest } from '../../../shared/pagination/newest-first-paginator';
import { FlowRepository } from '../../flows';
import { FlowReplayEntity } from '../persistence/flow-replay.entity';
import { ReplayResponse } from '../dto/replay.response.dto';
import { ListReplaysQuery } from './list-replays.query';

/** A flow's replays, newest first by (createdAt, id), unbounded in time. */
@QueryHandler(ListReplaysQuery)
export class ListReplaysHandler implements IQueryHandler<ListReplaysQuery, NewestFirstPage<ReplayResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly paginator: NewestFirstPaginator,
  ) {}

  async execute({ caller, flowId, params }: ListReplaysQuery): Promise<NewestFirstPage<ReplayResponse>> {
    const request: WindowedPageRequest = {
      actorId: caller.principal.userId,
      scope: `flows/${flowId}/replays`,
      filters: {},
      limit: params.limit,
      cursor: params.cursor,
      window: { from: null, to: null },
      defaultHours: null,
    };
    this.paginator.verify(request);
    const { access } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const query = this.dataSource.getRepository(FlowReplayEntity).createQueryBuilder('r').where('r.flow_id = :flowId', { flowId });
    const page = await this.paginator.timeWindowed(query, { time: 'r.created_at', id: 'r.replay_id' }, request);
    return { ...page, items: page.items.map((row) => ReplayResponse.of(row)) };
  }
}
