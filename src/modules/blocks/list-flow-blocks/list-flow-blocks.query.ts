import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Principal } from '../../../shared/auth/principal';
import type { Page } from '../../../shared/pagination/page';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';
import type { ListFlowBlocksParams } from '../dto/flow-block.request.dto';

export class ListGlobalFlowBlocksQuery extends Query<Page<FlowBlockResponse>> {
  constructor(
    readonly principal: Principal,
    readonly params: ListFlowBlocksParams,
  ) {
    super();
  }
}

export class ListTenantFlowBlocksQuery extends Query<Page<FlowBlockResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListFlowBlocksParams,
  ) {
    super();
  }
}
