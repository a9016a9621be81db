import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Principal } from '../../../shared/auth/principal';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';
import type { CreateFlowBlockRequest } from '../dto/flow-block.request.dto';

/** A global block (the route is for platform administrators only). */
export class CreateGlobalFlowBlockCommand extends Command<FlowBlockResponse> {
  constructor(
    readonly principal: Principal,
    readonly input: CreateFlowBlockRequest,
  ) {
    super();
  }
}

export class CreateTenantFlowBlockCommand extends Command<FlowBlockResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly input: CreateFlowBlockRequest,
  ) {
    super();
  }
}
