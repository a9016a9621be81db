import { Body, Controller, Delete, Get, HttpCode, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
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

const NOT_FOUND = 'The flow (or the device, or the override on delete) is missing, or in a tenant the caller has no effective grant in.';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';
const TENANT: OverrideTarget = { level: 'tenant', deviceId: null };
const DEVICE_TYPE: OverrideTarget = { level: 'device_type', deviceId: null };

@ApiTags('flows')
@ApiBearerAuth()
@Controller('v1/flows/:flowId')
export class FlowParametersController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get('parameter-overrides')
  @OperationId('ListParameterOverridesController_list')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ParameterOverridePage, description: 'Tenant-level overrides included; ascending with `totalCount`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: ListParameterOverridesParams): Promise<ParameterOverridePage> {
    return this.queryBus.execute(new ListParameterOverridesQuery(caller, flowId, params));
  }

  @Put('parameter-overrides/tenant/:key')
  @OperationId('SetTenantParameterOverrideController_set')
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
  @OperationId('SetDeviceTypeParameterOverrideController_set')
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
  @OperationId('SetDeviceParameterOverrideController_set')
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
  @OperationId('DeleteTenantParameterOverrideController_delete')
  @HttpCode(204)
  @RequirePermission('flows:write')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  async deleteTenant(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @ParameterKeyParam() key: string): Promise<void> {
    await this.commandBus.execute(new DeleteParameterOverrideCommand(caller, flowId, TENANT, key));
  }

  @Delete('parameter-overrides/device-type/:key')
  @OperationId('DeleteDeviceTypeParameterOverrideController_delete')
  @HttpCode(204)
  @RequirePermission('flows:write')
  @ApiNoContentResponse({ description: 'Deleted.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  async deleteDeviceType(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @ParameterKeyParam() key: string): Promise<void> {
    await this.commandBus.execute(new DeleteParameterOverrideCommand(caller, flowId, DEVICE_TYPE, key));
  }

  @Delete('parameter-overrides/devices/:deviceId/:key')
  @OperationId('DeleteDeviceParameterOverrideController_delete')
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
  @OperationId('GetResolvedParametersController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ResolvedParametersResponse })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `flow`).' })
  @ApiConflictResponse({ description: '`no_active_version`: no `flowVersionId` given and the flow has no active version.' })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: GetResolvedParametersParams): Promise<ResolvedParametersResponse> {
    return this.queryBus.execute(new GetResolvedParametersQuery(caller, flowId, params));
  }
}
