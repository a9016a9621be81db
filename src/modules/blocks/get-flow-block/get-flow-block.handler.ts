import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';
import { FlowBlockStore } from '../persistence/flow-block.store';
import { GetFlowBlockQuery } from './get-flow-block.query';

@QueryHandler(GetFlowBlockQuery)
export class GetFlowBlockHandler implements IQueryHandler<GetFlowBlockQuery, FlowBlockResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ caller, flowBlockId }: GetFlowBlockQuery): Promise<FlowBlockResponse> {
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    return this.store.response(this.dataSource.manager, flowBlockId);
  }
}
