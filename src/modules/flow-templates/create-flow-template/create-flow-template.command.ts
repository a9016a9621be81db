import { Command } from '@nestjs/cqrs';
import type { FlowTemplateResponse } from '../dto/flow-template.response.dto';
import type { CreateFlowTemplateRequest } from '../dto/flow-template.request.dto';

/** A new flow template (the route is for platform administrators only). */
export class CreateFlowTemplateCommand extends Command<FlowTemplateResponse> {
  constructor(readonly input: CreateFlowTemplateRequest) {
    super();
  }
}
