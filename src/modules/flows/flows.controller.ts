import { Body, Controller, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { IfMatch, setEtag } from '../../shared/concurrency/if-match';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { ActivateFlowCommand } from './activate-flow/activate-flow.command';
import { ActivateFlowRequest } from './dto/activate-flow.request.dto';
import { CreateFlowCommand } from './create-flow/create-flow.command';
import { CreateFlowRequest } from './dto/create-flow.request.dto';
import type { FlowResult } from './dto/flow.response.dto';
import { FlowResponse } from './dto/flow.response.dto';
import { GetDeviceTypeFlowQuery } from './get-device-type-flow/get-device-type-flow.query';
import { GetFlowQuery } from './get-flow/get-flow.query';
import { FlowPage } from './dto/flow-page.response.dto';
import { ListFlowsQuery } from './list-flows/list-flows.query';
import { ListFlowsParams } from './dto/list-flows.request.dto';
import { UpdateFlowCommand } from './update-flow/update-flow.command';
import { UpdateFlowRequest } from './dto/update-flow.request.dto';

const NOT_FOUND = 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `flow`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

@ApiTags('flows')
@ApiBearerAuth()
@Controller('v1')
export class FlowsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Post('device-types/:deviceTypeId/flow')
  @OperationId('CreateFlowController_create')
  @RequirePermission('flows:write')
  @ApiCreatedResponse({ type: FlowResponse, description: '`Location: /v1/flows/{flowId}`, `ETag: "1"`; the first draft (version 1) holds the two output nodes.' })
  @ApiNotFoundResponse({ description: 'No such device type visible to the caller (`resourceType` `device_type`).' })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`flow_exists`: the device type has its flow; `duplicate_key` (per tenant).' })
  async create(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @Body() body: CreateFlowRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowResponse> {
    const result = await this.commandBus.execute(new CreateFlowCommand(caller, deviceTypeId, body));
    res.location(`/v1/flows/${result.flow.flowId}`);
    return this.send(res, result);
  }

  @Get('device-types/:deviceTypeId/flow')
  @OperationId('GetDeviceTypeFlowController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FlowResponse, description: 'With `ETag`.' })
  @ApiNotFoundResponse({ description: 'No such device type visible to the caller (`device_type`), or the type has no flow yet (`flow`).' })
  async getByDeviceType(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowResponse> {
    return this.send(res, await this.queryBus.execute(new GetDeviceTypeFlowQuery(caller, deviceTypeId)));
  }

  @Get('tenants/:tenantNumber/flows')
  @OperationId('ListFlowsController_list')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FlowPage, description: 'Ascending by (createdAt, flowId), with `totalCount`.' })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListFlowsParams): Promise<FlowPage> {
    return this.queryBus.execute(new ListFlowsQuery(caller, tenantNumber, params));
  }

  @Get('flows/:flowId')
  @OperationId('GetFlowController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FlowResponse, description: 'With `ETag` (the flow\'s lockVersion).' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  async get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Res({ passthrough: true }) res: Response): Promise<FlowResponse> {
    return this.send(res, await this.queryBus.execute(new GetFlowQuery(caller, flowId)));
  }

  @Patch('flows/:flowId')
  @OperationId('UpdateFlowController_update')
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: FlowResponse, description: 'New `ETag`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`).' })
  async update(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: UpdateFlowRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowResponse> {
    return this.send(res, await this.commandBus.execute(new UpdateFlowCommand(caller, flowId, expectedLockVersion, { ...body })));
  }

  @Post('flows/:flowId/activate')
  @OperationId('ActivateFlowController_activate')
  @HttpCode(200)
  @RequirePermission('flows:release')
  @ApiOkResponse({ type: FlowResponse, description: 'The flow with its new active version and a new `ETag`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`); `version_not_released` (+`currentStatus`); `already_active`.' })
  async activate(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: ActivateFlowRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowResponse> {
    return this.send(res, await this.commandBus.execute(new ActivateFlowCommand(caller, flowId, expectedLockVersion, body.flowVersionId.toLowerCase())));
  }

  private send(res: Response, result: FlowResult): FlowResponse {
    setEtag(res, result);
    return result.flow;
  }
}
