import { Body, Controller, Delete, Get, HttpCode, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../shared/http/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { DeleteParameterOverrideCommand } from './delete-parameter-override/delete-parameter-override.command';
import { OverrideTarget, ParameterKeyParam } from './domain/parameter-override.repository';
import { ParameterOverrideResponse } from './domain/parameter-override.response.dto';
import { GetResolvedParametersQuery } from './get-resolved-parameters/get-resolved-parameters.query';
import { GetResolvedParametersParams } from './get-resolved-parameters/get-resolved-parameters.request.dto';
import { ResolvedParametersResponse } from './get-resolved-parameters/resolved-parameters.response.dto';
import { ListParameterOverridesQuery } from './list-parameter-overrides/list-parameter-overrides.query';
import { ListParameterOverridesParams } from './list-parameter-overrides/list-parameter-overrides.request.dto';
import { ParameterOverridePage } from './list-parameter-overrides/parameter-override-page.response.dto';
import { SetParameterOverrideCommand } from './set-parameter-override/set-parameter-override.command';
import { SetParameterOverrideRequest } from './set-parameter-override/set-parameter-override.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_PARAMETERS_DOCS } from './flow-parameters.docs';

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

  @Get('parameter-overrides')
  @OperationId('parameterOverrides_list')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ParameterOverridePage, description: 'Tenant-level overrides included; ascending with `totalCount`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: ListParameterOverridesParams): Promise<ParameterOverridePage> {
    return this.queryBus.execute(new ListParameterOverridesQuery(caller, flowId, params));
  }

  @Put('parameter-overrides/tenant/:key')
  @OperationId('parameterOverrides_setTenant')
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: ParameterOverrideResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  setTenant(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @ParameterKeyParam() key: string,
    @Body() body: SetParameterOverrideRequest,
  ): Promise<ParameterOverrideResponse> {
    return this.commandBus.execute(new SetParameterOverrideCommand(caller, flowId, TENANT, key, body));
  }

  @Put('parameter-overrides/device-type/:key')
  @OperationId('parameterOverrides_setDeviceType')
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: ParameterOverrideResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  setDeviceType(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @ParameterKeyParam() key: string,
    @Body() body: SetParameterOverrideRequest,
  ): Promise<ParameterOverrideResponse> {
    return this.commandBus.execute(new SetParameterOverrideCommand(caller, flowId, DEVICE_TYPE, key, body));
  }

  @Put('parameter-overrides/devices/:deviceId/:key')
  @OperationId('parameterOverrides_setDevice')
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: ParameterOverrideResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  setDevice(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('deviceId') deviceId: string,
    @ParameterKeyParam() key: string,
    @Body() body: SetParameterOverrideRequest,
  ): Promise<ParameterOverrideResponse> {
    return this.commandBus.execute(new SetParameterOverrideCommand(caller, flowId, { level: 'device', deviceId: deviceId.toLowerCase() }, key, body));
  }

  @Delete('parameter-overrides/tenant/:key')
  @OperationId('parameterOverrides_deleteTenant')
  @HttpCode(204)
  @RequirePermission('flows:write')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  async deleteTenant(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @ParameterKeyParam() key: string): Promise<void> {
    await this.commandBus.execute(new DeleteParameterOverrideCommand(caller, flowId, TENANT, key));
  }

  @Delete('parameter-overrides/device-type/:key')
  @OperationId('parameterOverrides_deleteDeviceType')
  @HttpCode(204)
  @RequirePermission('flows:write')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  async deleteDeviceType(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @ParameterKeyParam() key: string): Promise<void> {
    await this.commandBus.execute(new DeleteParameterOverrideCommand(caller, flowId, DEVICE_TYPE, key));
  }

  @Delete('parameter-overrides/devices/:deviceId/:key')
  @OperationId('parameterOverrides_deleteDevice')
  @HttpCode(204)
  @RequirePermission('flows:write')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  async deleteDevice(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('deviceId') deviceId: string,
    @ParameterKeyParam() key: string,
  ): Promise<void> {
    await this.commandBus.execute(new DeleteParameterOverrideCommand(caller, flowId, { level: 'device', deviceId: deviceId.toLowerCase() }, key));
  }

  @Get('resolved-parameters')
  @OperationId('resolvedParameters_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ResolvedParametersResponse })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `flow`).' })
  @ApiConflictResponse({ description: '`no_active_version`: no `flowVersionId` given and the flow has no active version.' })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: GetResolvedParametersParams): Promise<ResolvedParametersResponse> {
    return this.queryBus.execute(new GetResolvedParametersQuery(caller, flowId, params));
  }
}
