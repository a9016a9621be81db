import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowTemplateResponse } from '../dto/flow-template.response.dto';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { GetFlowTemplateQuery } from './get-flow-template.query';

/** Any signed-in caller reads any template. */
@QueryHandler(GetFlowTemplateQuery)
export class GetFlowTemplateHandler implements IQueryHandler<GetFlowTemplateQuery, FlowTemplateResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowTemplateStore,
  ) {}

  execute({ flowTemplateId }: GetFlowTemplateQuery): Promise<FlowTemplateResponse> {
    return this.store.response(this.dataSource.manager, flowTemplateId);
  }
}
