import { Body, Controller, Get, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../shared/auth/principal';
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

export class FlowBlockPage extends PageResponse(FlowBlockResponse) {}

const BLOCK_404 = 'Missing, or a block of a tenant the caller holds no effective grant in: one answer (`resourceType` `flow_block`).';

/** Custom blocks: global ones (platform administrators write, every signed-in user reads) and tenant ones. */
@ApiTags('flow-blocks')
@ApiBearerAuth()
@Controller('v1')
export class FlowBlocksController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get('flow-blocks')
  @OperationId('ListGlobalFlowBlocksController_list')
  @ApiOkResponse({ type: FlowBlockPage, description: 'The global blocks, ascending by (createdAt, flowBlockId); no sources or artifacts.' })
  listGlobal(@CurrentPrincipal() principal: Principal, @Query() params: ListFlowBlocksParams): Promise<FlowBlockPage> {
    return this.queryBus.execute(new ListGlobalFlowBlocksQuery(principal, params));
  }

  @Post('flow-blocks')
  @OperationId('CreateGlobalFlowBlockController_create')
  @PlatformAdminOnly()
  @ApiCreatedResponse({ type: FlowBlockResponse, description: 'A `global` block; `Location: /v1/flow-blocks/{flowBlockId}`.' })
  @ApiConflictResponse({ description: '`duplicate_key` among the global blocks.' })
  async createGlobal(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateFlowBlockRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowBlockResponse> {
    const block = await this.commandBus.execute(new CreateGlobalFlowBlockCommand(principal, body));
    res.location(`/v1/flow-blocks/${block.flowBlockId}`);
    return block;
  }

  @Get('tenants/:tenantNumber/flow-blocks')
  @OperationId('ListTenantFlowBlocksController_list')
  @RequirePermission('blocks:read')
  @ApiOkResponse({ type: FlowBlockPage, description: "The tenant's own blocks, ascending by (createdAt, flowBlockId); no sources or artifacts." })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs `blocks:read` through a tenant-level grant.' })
  listTenant(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListFlowBlocksParams): Promise<FlowBlockPage> {
    return this.queryBus.execute(new ListTenantFlowBlocksQuery(caller, tenantNumber, params));
  }

  @Post('tenants/:tenantNumber/flow-blocks')
  @OperationId('CreateTenantFlowBlockController_create')
  @RequirePermission('blocks:write')
  @ApiCreatedResponse({ type: FlowBlockResponse, description: 'A `tenant` block; `Location: /v1/flow-blocks/{flowBlockId}`.' })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs `blocks:write` through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`duplicate_key` in the tenant; `max_blocks`: the tenant already holds 500 blocks.' })
  async createTenant(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateFlowBlockRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowBlockResponse> {
    const block = await this.commandBus.execute(new CreateTenantFlowBlockCommand(caller, tenantNumber, body));
    res.location(`/v1/flow-blocks/${block.flowBlockId}`);
    return block;
  }

  @Get('tenants/:tenantNumber/flow-block-catalog')
  @OperationId('GetFlowBlockCatalogController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FlowBlockCatalog, description: 'Unpaged: the built-in blocks, then global and tenant blocks with their released versions.' })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs `flows:read` through a tenant-level grant.' })
  catalog(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number): Promise<FlowBlockCatalog> {
    return this.queryBus.execute(new GetFlowBlockCatalogQuery(caller, tenantNumber));
  }

  @Get('flow-blocks/:flowBlockId')
  @OperationId('GetFlowBlockController_get')
  @RequirePermission('blocks:read')
  @ApiOkResponse({ type: FlowBlockResponse })
  @ApiNotFoundResponse({ description: BLOCK_404 })
  @ApiForbiddenResponse({ description: '`missing_permission`: a tenant block needs `blocks:read` through a tenant-level grant.' })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowBlockId') flowBlockId: string): Promise<FlowBlockResponse> {
    return this.queryBus.execute(new GetFlowBlockQuery(caller, flowBlockId));
  }

  @Patch('flow-blocks/:flowBlockId')
  @OperationId('UpdateFlowBlockController_update')
  @RequirePermission('blocks:write')
  @ApiOkResponse({ type: FlowBlockResponse, description: '`name` and `description`; `key` and `scope` are immutable (`unknown_property`).' })
  @ApiNotFoundResponse({ description: BLOCK_404 })
  @ApiForbiddenResponse({ description: '`missing_permission` (tenant block); `platform_admin_required` (global block).' })
  update(@CurrentCaller() caller: Caller, @UuidParam('flowBlockId') flowBlockId: string, @Body() body: UpdateFlowBlockRequest): Promise<FlowBlockResponse> {
    return this.commandBus.execute(new UpdateFlowBlockCommand(caller, flowBlockId, { ...body }));
  }
}
