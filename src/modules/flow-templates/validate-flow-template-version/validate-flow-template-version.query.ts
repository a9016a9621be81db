import { Query } from '@nestjs/cqrs';
import type { FlowTemplateValidationReport } from '../dto/flow-template-version.response.dto';

export class ValidateFlowTemplateVersionQuery extends Query<FlowTemplateValidationReport> {
  constructor(
    readonly flowTemplateId: string,
    readonly flowTemplateVersionId: string,
  ) {
    super();
  }
}
