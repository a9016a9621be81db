import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowVersionResponse } from '../domain/flow-version.response.dto';
import type { CreateFlowVersionRequest } from './create-flow-version.request.dto';

export class CreateFlowVersionCommand extends Command<FlowVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly input: CreateFlowVersionRequest,
  ) {
    super();
  }
}
