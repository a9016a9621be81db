import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FixtureRepository } from '../persistence/fixture.repository';
import { FixtureResponse } from '../dto/fixture.response.dto';
import { FlowRepository } from '../persistence/flow.repository';
import { GetFixtureQuery } from './get-fixture.query';

@QueryHandler(GetFixtureQuery)
export class GetFixtureHandler implements IQueryHandler<GetFixtureQuery, FixtureResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly fixtures: FixtureRepository,
  ) {}

  async execute({ caller, flowId, fixtureId }: GetFixtureQuery): Promise<FixtureResponse> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    const fixture = await this.fixtures.find(this.dataSource.manager, flowId, fixtureId);
    access.require(caller.permission);
    return FixtureResponse.of(fixture);
  }
}
