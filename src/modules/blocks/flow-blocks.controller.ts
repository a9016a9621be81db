import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { PageResponse } from '../../shared/pagination/page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { FlowBlockCatalog } from './dto/flow-block-catalog.response.dto';
import { GetFlowBlockCatalogQuery } from './get-flow-block-catalog/get-flow-block-catalog.query';
import { FlowBlockResponse } from './dto/flow-block.response.dto';
import { CreateGlobalFlowBlockCommand, CreateTenantFlowBlockCommand } from './create-flow-block/create-flow-block.command';
import { UpdateFlowBlockCommand } from './update-flow-block/update-flow-block.command';
import { GetFlowBlockQuery } from './get-flow-block/get-flow-block.query';
import { ListGlobalFlowBlocksQuery, ListTenantFlowBlocksQuery } from './list-flow-blocks/list-flow-blocks.query';
import { CreateFlowBlockRequest, ListFlowBlocksParams, UpdateFlowBlockRequest } from './dto/flow-block.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_BLOCKS_DOCS } from './flow-blocks.docs';
import { BLOCKS_PARAMETER_EXAMPLES, BLOCKS_SCHEMA_EXAMPLES } from './blocks.examples';
import { ReadById, Route, TenantCreate, TenantList, WriteById } from '../../shared/http/routes';

export class FlowBlockPage extends PageResponse(FlowBlockResponse) {}

const BLOCK_404 = 'Missing, or a block of a tenant the caller holds no effective grant in: one answer (`resourceType` `flow_block`).';

/** Custom blocks: global ones (platform administrators write, every signed-in user reads) and tenant ones. */
@ApiTags('flow-blocks')
@ApiBearerAuth()
@ApiDocs(FLOW_BLOCKS_DOCS, { schemas: BLOCKS_SCHEMA_EXAMPLES, parameters: BLOCKS_PARAMETER_EXAMPLES })
@Controller('v1')
export class FlowBlocksController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', 'flow-blocks', {
    operationId: 'flowBlocks_list',
    type: FlowBlockPage,
    description: 'The global blocks, ascending by (createdAt, flowBlockId); no sources or artifacts.',
  })
  listGlobal(@CurrentPrincipal() principal: Principal, @Query() params: ListFlowBlocksParams): Promise<FlowBlockPage> {
    return this.queryBus.execute(new ListGlobalFlowBlocksQuery(principal, params));
  }

  @Route('post', 'flow-blocks', {
    operationId: 'flowBlocks_create',
    platformAdminOnly: true,
    type: FlowBlockResponse,
    description: 'A `global` block; `Location: /v1/flow-blocks/{flowBlockId}`.',
    location: '/v1/flow-blocks/{flowBlockId}',
    conflict: '`duplicate_key` among the global blocks.',
  })
  createGlobal(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateFlowBlockRequest,
  ): Promise<FlowBlockResponse> {
    return this.commandBus.execute(new CreateGlobalFlowBlockCommand(principal, body));
  }

  @TenantList('tenants/:tenantNumber/flow-blocks', {
    operationId: 'tenantFlowBlocks_list',
    permission: 'blocks:read',
    type: FlowBlockPage,
    description: "The tenant's own blocks, ascending by (createdAt, flowBlockId); no sources or artifacts.",
    forbidden: '`missing_permission`: needs `blocks:read` through a tenant-level grant.',
  })
  listTenant(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListFlowBlocksParams): Promise<FlowBlockPage> {
    return this.queryBus.execute(new ListTenantFlowBlocksQuery(caller, tenantNumber, params));
  }

  @TenantCreate('tenants/:tenantNumber/flow-blocks', {
    operationId: 'tenantFlowBlocks_create',
    permission: 'blocks:write',
    type: FlowBlockResponse,
    description: 'A `tenant` block; `Location: /v1/flow-blocks/{flowBlockId}`.',
    location: '/v1/flow-blocks/{flowBlockId}',
    forbidden: '`missing_permission`: needs `blocks:write` through a tenant-level grant.',
    conflict: '`duplicate_key` in the tenant; `max_blocks`: the tenant already holds 500 blocks.',
  })
  createTenant(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateFlowBlockRequest,
  ): Promise<FlowBlockResponse> {
    return this.commandBus.execute(new CreateTenantFlowBlockCommand(caller, tenantNumber, body));
  }

  @TenantList('tenants/:tenantNumber/flow-block-catalog', {
    operationId: 'flowBlockCatalog_get',
    permission: 'flows:read',
    type: FlowBlockCatalog,
    description: 'Unpaged: the built-in blocks, then global and tenant blocks with their released versions.',
    forbidden: '`missing_permission`: needs `flows:read` through a tenant-level grant.',
  })
  catalog(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number): Promise<FlowBlockCatalog> {
    return this.queryBus.execute(new GetFlowBlockCatalogQuery(caller, tenantNumber));
  }

  @ReadById('flow-blocks/:flowBlockId', {
    operationId: 'flowBlocks_get',
    permission: 'blocks:read',
    type: FlowBlockResponse,
    forbidden: '`missing_permission`: a tenant block needs `blocks:read` through a tenant-level grant.',
    notFound: BLOCK_404,
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowBlockId') flowBlockId: string): Promise<FlowBlockResponse> {
    return this.queryBus.execute(new GetFlowBlockQuery(caller, flowBlockId));
  }

  @WriteById('patch', 'flow-blocks/:flowBlockId', {
    operationId: 'flowBlocks_update',
    permission: 'blocks:write',
    type: FlowBlockResponse,
    description: '`name` and `description`; `key` and `scope` are immutable (`unknown_property`).',
    forbidden: '`missing_permission` (tenant block); `platform_admin_required` (global block).',
    notFound: BLOCK_404,
  })
  update(@CurrentCaller() caller: Caller, @UuidParam('flowBlockId') flowBlockId: string, @Body() body: UpdateFlowBlockRequest): Promise<FlowBlockResponse> {
    return this.commandBus.execute(new UpdateFlowBlockCommand(caller, flowBlockId, { ...body }));
  }
}
