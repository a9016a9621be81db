import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowTemplateValidationReport } from '../dto/flow-template-version.response.dto';
import { TemplateVersionValidator } from '../domain/template-version-validator';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { ValidateFlowTemplateVersionQuery } from './validate-flow-template-version.query';

/** The compile report of a template version in any status, against the current global block catalog. */
@QueryHandler(ValidateFlowTemplateVersionQuery)
export class ValidateFlowTemplateVersionHandler implements IQueryHandler<ValidateFlowTemplateVersionQuery, FlowTemplateValidationReport> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowTemplateStore,
    private readonly validator: TemplateVersionValidator,
  ) {}

  async execute({ flowTemplateId, flowTemplateVersionId }: ValidateFlowTemplateVersionQuery): Promise<FlowTemplateValidationReport> {
    await this.store.find(flowTemplateId);
    const version = await this.store.versions.findVersion(this.dataSource.manager, flowTemplateId, flowTemplateVersionId);
    return this.validator.report(this.dataSource.manager, version);
  }
}
