import { Command } from '@nestjs/cqrs';
import type { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';

export class DeprecateFlowTemplateVersionCommand extends Command<FlowTemplateVersionResponse> {
  constructor(
    readonly flowTemplateId: string,
    readonly flowTemplateVersionId: string,
  ) {
    super();
  }
}
