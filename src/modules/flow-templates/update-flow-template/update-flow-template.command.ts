import { Command } from '@nestjs/cqrs';
import type { FlowTemplateResponse } from '../dto/flow-template.response.dto';
import type { UpdateFlowTemplateRequest } from '../dto/flow-template.request.dto';

export class UpdateFlowTemplateCommand extends Command<FlowTemplateResponse> {
  constructor(
    readonly flowTemplateId: string,
    readonly changes: UpdateFlowTemplateRequest,
  ) {
    super();
  }
}
