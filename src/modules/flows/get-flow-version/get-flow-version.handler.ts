import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowVersionResponse } from '../dto/flow-version.response.dto';
import { FlowVersionStore } from '../persistence/flow-version.store';
import { GetFlowVersionQuery } from './get-flow-version.query';

/** A version of the flow; another flow's version is the version's 404. */
@QueryHandler(GetFlowVersionQuery)
export class GetFlowVersionHandler implements IQueryHandler<GetFlowVersionQuery, FlowVersionResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
  ) {}

  async execute({ caller, flowId, flowVersionId }: GetFlowVersionQuery): Promise<FlowVersionResponse> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    const version = await this.versions.findVersion(this.dataSource.manager, flowId, flowVersionId);
    access.require(caller.permission);
    return FlowVersionResponse.of(version);
  }
}
