import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import type { Page } from '../../../shared/pagination/page';
import { FixtureResponse } from '../dto/fixture.response.dto';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowFixtureEntity } from '../persistence/flow-fixture.entity';
import { ListFixturesQuery } from './list-fixtures.query';

/** The flow's fixtures, ascending by (createdAt, fixtureId), with totalCount. */
@QueryHandler(ListFixturesQuery)
export class ListFixturesHandler implements IQueryHandler<ListFixturesQuery, Page<FixtureResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
    private readonly flows: FlowRepository,
  ) {}

  async execute({ caller, flowId, params }: ListFixturesQuery): Promise<Page<FixtureResponse>> {
    const pageRequest = { actorId: caller.principal.userId, scope: `flows/${flowId}/fixtures`, filters: {}, limit: params.limit, cursor: params.cursor };
    this.paginator.verify(pageRequest);
    const { access } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const query = this.dataSource.getRepository(FlowFixtureEntity).createQueryBuilder('fx').where('fx.flow_id = :flowId', { flowId });
    const page = await this.paginator.ascending(query, { createdAt: 'fx.created_at', id: 'fx.fixture_id' }, pageRequest);
    return { ...page, items: page.items.map((fixture) => FixtureResponse.of(fixture)) };
  }
}
