import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowVersionResponse } from '../../flows';

/** A new draft of the flow `flowId` holding the template version's graph (`flows:write` on the flow's tenant). */
export class CopyFlowTemplateVersionCommand extends Command<FlowVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowTemplateId: string,
    readonly flowTemplateVersionId: string,
    readonly flowId: string,
  ) {
    super();
  }
}
