import { Query } from '@nestjs/cqrs';
import type { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';

export class GetFlowTemplateVersionQuery extends Query<FlowTemplateVersionResponse> {
  constructor(
    readonly flowTemplateId: string,
    readonly flowTemplateVersionId: string,
  ) {
    super();
  }
}
