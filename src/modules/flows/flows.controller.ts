import { Body, Controller, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOWS_DOCS } from './flows.docs';
import { FLOWS_PARAMETER_EXAMPLES, FLOWS_SCHEMA_EXAMPLES } from './flows.examples';
import { ReadById, Route, TenantList, WriteById } from '../../shared/http/routes';

const NOT_FOUND = 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `flow`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

@ApiTags('flows')
@ApiBearerAuth()
@ApiDocs(FLOWS_DOCS, { schemas: FLOWS_SCHEMA_EXAMPLES, parameters: FLOWS_PARAMETER_EXAMPLES })
@Controller('v1')
export class FlowsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('post', 'device-types/:deviceTypeId/flow', {
    operationId: 'flows_create',
    permission: 'flows:write',
    type: FlowResponse,
    description: '`Location: /v1/flows/{flowId}`, `ETag: "1"`; the first draft (version 1) holds the two output nodes.',
    forbidden: FORBIDDEN,
    notFound: 'No such device type visible to the caller (`resourceType` `device_type`).',
    conflict: '`flow_exists`: the device type has its flow; `duplicate_key` (per tenant).',
  })
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

  @Route('get', 'device-types/:deviceTypeId/flow', {
    operationId: 'flows_getByDeviceType',
    permission: 'flows:read',
    type: FlowResponse,
    description: 'With `ETag`.',
    notFound: 'No such device type visible to the caller (`device_type`), or the type has no flow yet (`flow`).',
  })
  async getByDeviceType(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowResponse> {
    return this.send(res, await this.queryBus.execute(new GetDeviceTypeFlowQuery(caller, deviceTypeId)));
  }

  @TenantList('tenants/:tenantNumber/flows', {
    operationId: 'flows_list',
    permission: 'flows:read',
    type: FlowPage,
    description: 'Ascending by (createdAt, flowId), with `totalCount`.',
  })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListFlowsParams): Promise<FlowPage> {
    return this.queryBus.execute(new ListFlowsQuery(caller, tenantNumber, params));
  }

  @ReadById('flows/:flowId', {
    operationId: 'flows_get',
    permission: 'flows:read',
    type: FlowResponse,
    description: 'With `ETag` (the flow\'s lockVersion).',
    notFound: NOT_FOUND,
  })
  async get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Res({ passthrough: true }) res: Response): Promise<FlowResponse> {
    return this.send(res, await this.queryBus.execute(new GetFlowQuery(caller, flowId)));
  }

  @WriteById('patch', 'flows/:flowId', {
    operationId: 'flows_update',
    permission: 'flows:write',
    type: FlowResponse,
    description: 'New `ETag`.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`lock_version_mismatch` (+`currentLockVersion`).',
  })
  async update(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: UpdateFlowRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowResponse> {
    return this.send(res, await this.commandBus.execute(new UpdateFlowCommand(caller, flowId, expectedLockVersion, { ...body })));
  }

  @WriteById('post', 'flows/:flowId/activate', {
    operationId: 'flows_activate',
    permission: 'flows:release',
    type: FlowResponse,
    description: 'The flow with its new active version and a new `ETag`.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`lock_version_mismatch` (+`currentLockVersion`); `version_not_released` (+`currentStatus`); `already_active`.',
  })
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
