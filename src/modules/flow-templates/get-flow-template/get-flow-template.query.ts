import { Query } from '@nestjs/cqrs';
import type { FlowTemplateResponse } from '../dto/flow-template.response.dto';

export class GetFlowTemplateQuery extends Query<FlowTemplateResponse> {
  constructor(readonly flowTemplateId: string) {
    super();
  }
}
