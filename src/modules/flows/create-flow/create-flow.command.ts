import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowResult } from '../dto/flow.response.dto';
import type { CreateFlowRequest } from '../dto/create-flow.request.dto';

export class CreateFlowCommand extends Command<FlowResult> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
    readonly input: CreateFlowRequest,
  ) {
    super();
  }
}
