import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { DeleteParameterOverrideCommand } from './delete-parameter-override/delete-parameter-override.command';
import { OverrideTarget, ParameterKeyParam } from './persistence/parameter-override.repository';
import { ParameterOverrideResponse } from './dto/parameter-override.response.dto';
import { GetResolvedParametersQuery } from './get-resolved-parameters/get-resolved-parameters.query';
import { GetResolvedParametersParams } from './dto/get-resolved-parameters.request.dto';
import { ResolvedParametersResponse } from './dto/resolved-parameters.response.dto';
import { ListParameterOverridesQuery } from './list-parameter-overrides/list-parameter-overrides.query';
import { ListParameterOverridesParams } from './dto/list-parameter-overrides.request.dto';
import { ParameterOverridePage } from './dto/parameter-override-page.response.dto';
import { SetParameterOverrideCommand } from './set-parameter-override/set-parameter-override.command';
import { SetParameterOverrideRequest } from './dto/set-parameter-override.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_PARAMETERS_DOCS } from './flow-parameters.docs';
import { Route, WriteById } from '../../shared/http/routes';

const NOT_FOUND = 'The flow (or the device, or the override on delete) is missing, or in a tenant the caller has no effective grant in.';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';
const TENANT: OverrideTarget = { level: 'tenant', deviceId: null };
const DEVICE_TYPE: OverrideTarget = { level: 'device_type', deviceId: null };

@ApiTags('flows')
@ApiBearerAuth()
@ApiDocs(FLOW_PARAMETERS_DOCS)
@Controller('v1/flows/:flowId')
export class FlowParametersController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', 'parameter-overrides', {
    operationId: 'parameterOverrides_list',
    permission: 'flows:read',
    type: ParameterOverridePage,
    description: 'Tenant-level overrides included; ascending with `totalCount`.',
    notFound: NOT_FOUND,
  })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: ListParameterOverridesParams): Promise<ParameterOverridePage> {
    return this.queryBus.execute(new ListParameterOverridesQuery(caller, flowId, params));
  }

  @WriteById('put', 'parameter-overrides/tenant/:key', {
    operationId: 'parameterOverrides_setTenant',
    permission: 'flows:write',
    type: ParameterOverrideResponse,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  setTenant(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @ParameterKeyParam() key: string,
    @Body() body: SetParameterOverrideRequest,
  ): Promise<ParameterOverrideResponse> {
    return this.commandBus.execute(new SetParameterOverrideCommand(caller, flowId, TENANT, key, body));
  }

  @WriteById('put', 'parameter-overrides/device-type/:key', {
    operationId: 'parameterOverrides_setDeviceType',
    permission: 'flows:write',
    type: ParameterOverrideResponse,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  setDeviceType(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @ParameterKeyParam() key: string,
    @Body() body: SetParameterOverrideRequest,
  ): Promise<ParameterOverrideResponse> {
    return this.commandBus.execute(new SetParameterOverrideCommand(caller, flowId, DEVICE_TYPE, key, body));
  }

  @WriteById('put', 'parameter-overrides/devices/:deviceId/:key', {
    operationId: 'parameterOverrides_setDevice',
    permission: 'flows:write',
    type: ParameterOverrideResponse,
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  setDevice(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('deviceId') deviceId: string,
    @ParameterKeyParam() key: string,
    @Body() body: SetParameterOverrideRequest,
  ): Promise<ParameterOverrideResponse> {
    return this.commandBus.execute(new SetParameterOverrideCommand(caller, flowId, { level: 'device', deviceId: deviceId.toLowerCase() }, key, body));
  }

  @WriteById('delete', 'parameter-overrides/tenant/:key', {
    operationId: 'parameterOverrides_deleteTenant',
    permission: 'flows:write',
    status: 204,
    description: 'Deleted.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  async deleteTenant(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @ParameterKeyParam() key: string): Promise<void> {
    await this.commandBus.execute(new DeleteParameterOverrideCommand(caller, flowId, TENANT, key));
  }

  @WriteById('delete', 'parameter-overrides/device-type/:key', {
    operationId: 'parameterOverrides_deleteDeviceType',
    permission: 'flows:write',
    status: 204,
    description: 'Deleted.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  async deleteDeviceType(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @ParameterKeyParam() key: string): Promise<void> {
    await this.commandBus.execute(new DeleteParameterOverrideCommand(caller, flowId, DEVICE_TYPE, key));
  }

  @WriteById('delete', 'parameter-overrides/devices/:deviceId/:key', {
    operationId: 'parameterOverrides_deleteDevice',
    permission: 'flows:write',
    status: 204,
    description: 'Deleted.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  async deleteDevice(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('deviceId') deviceId: string,
    @ParameterKeyParam() key: string,
  ): Promise<void> {
    await this.commandBus.execute(new DeleteParameterOverrideCommand(caller, flowId, { level: 'device', deviceId: deviceId.toLowerCase() }, key));
  }

  @Route('get', 'resolved-parameters', {
    operationId: 'resolvedParameters_get',
    permission: 'flows:read',
    type: ResolvedParametersResponse,
    notFound: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `flow`).',
    conflict: '`no_active_version`: no `flowVersionId` given and the flow has no active version.',
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: GetResolvedParametersParams): Promise<ResolvedParametersResponse> {
    return this.queryBus.execute(new GetResolvedParametersQuery(caller, flowId, params));
  }
}
