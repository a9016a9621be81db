import { Command } from '@nestjs/cqrs';
import type { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';
import type { CreateFlowTemplateVersionRequest } from '../dto/flow-template-version.request.dto';

export class CreateFlowTemplateVersionCommand extends Command<FlowTemplateVersionResponse> {
  constructor(
    readonly flowTemplateId: string,
    readonly input: CreateFlowTemplateVersionRequest,
  ) {
    super();
  }
}
