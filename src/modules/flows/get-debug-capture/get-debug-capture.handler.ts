import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import type { FlowDebugCaptureResponse } from '../dto/debug-capture.response.dto';
import { DebugCaptureStore } from '../persistence/debug-capture.store';
import { FlowRepository } from '../persistence/flow.repository';
import { GetDebugCaptureQuery } from './get-debug-capture.query';

@QueryHandler(GetDebugCaptureQuery)
export class GetDebugCaptureHandler implements IQueryHandler<GetDebugCaptureQuery, FlowDebugCaptureResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly captures: DebugCaptureStore,
  ) {}

  async execute({ caller, flowId }: GetDebugCaptureQuery): Promise<FlowDebugCaptureResponse> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    return this.captures.state(this.dataSource.manager, flowId);
  }
}
