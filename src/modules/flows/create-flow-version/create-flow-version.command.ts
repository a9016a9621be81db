import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowVersionResponse } from '../dto/flow-version.response.dto';
import type { CreateFlowVersionRequest } from '../dto/create-flow-version.request.dto';

export class CreateFlowVersionCommand extends Command<FlowVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly input: CreateFlowVersionRequest,
  ) {
    super();
  }
}
