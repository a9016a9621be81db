import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowBlockVersionResponse } from '../dto/flow-block-version.response.dto';
import { FlowBlockStore } from '../persistence/flow-block.store';
import { GetFlowBlockVersionQuery } from './get-flow-block-version.query';

/** One version with its source, artifact and gate report. */
@QueryHandler(GetFlowBlockVersionQuery)
export class GetFlowBlockVersionHandler implements IQueryHandler<GetFlowBlockVersionQuery, FlowBlockVersionResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ caller, flowBlockId, flowBlockVersionId }: GetFlowBlockVersionQuery): Promise<FlowBlockVersionResponse> {
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const version = await this.store.versions.findVersion(this.dataSource.manager, flowBlockId, flowBlockVersionId);
    return FlowBlockVersionResponse.of(version.row);
  }
}
