import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowRepository } from '../persistence/flow.repository';
import type { FlowResult } from '../dto/flow.response.dto';
import { GetFlowQuery } from './get-flow.query';

@QueryHandler(GetFlowQuery)
export class GetFlowHandler implements IQueryHandler<GetFlowQuery, FlowResult> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
  ) {}

  async execute({ caller, flowId }: GetFlowQuery): Promise<FlowResult> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    return this.flows.result(this.dataSource.manager, flowId);
  }
}
