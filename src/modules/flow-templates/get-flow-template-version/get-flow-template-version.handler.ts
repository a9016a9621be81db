import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { GetFlowTemplateVersionQuery } from './get-flow-template-version.query';

@QueryHandler(GetFlowTemplateVersionQuery)
export class GetFlowTemplateVersionHandler implements IQueryHandler<GetFlowTemplateVersionQuery, FlowTemplateVersionResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowTemplateStore,
  ) {}

  async execute({ flowTemplateId, flowTemplateVersionId }: GetFlowTemplateVersionQuery): Promise<FlowTemplateVersionResponse> {
    await this.store.find(flowTemplateId);
    return FlowTemplateVersionResponse.of(await this.store.versions.findVersion(this.dataSource.manager, flowTemplateId, flowTemplateVersionId));
  }
}
