import { Body, Controller, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { ChangeDeviceStatusCommand } from './change-device-status/change-device-status.command';
import { CreateDeviceCommand } from './create-device/create-device.command';
import { CreateDeviceRequest } from './dto/create-device.request.dto';
import { DeviceResponse } from './dto/device.response.dto';
import { GetDeviceQuery } from './get-device/get-device.query';
import { DevicePage } from './dto/device-page.response.dto';
import { ListDevicesQuery } from './list-devices/list-devices.query';
import { ListDevicesParams } from './dto/list-devices.request.dto';
import { UpdateDeviceCommand } from './update-device/update-device.command';
import { UpdateDeviceRequest } from './dto/update-device.request.dto';

const NOT_FOUND = 'Missing, in another tenant, or outside the caller’s scope.';
const INVALID_STATE = '`invalid_state` (+`currentStatus`): not an allowed move from the current status (`active` ⇄ `disabled`, either → `retired`).';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1')
export class DevicesController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get('tenants/:tenantNumber/devices')
  @OperationId('ListDevicesController_list')
  @RequirePermission('devices:read')
  @ApiOkResponse({
    type: DevicePage,
    description:
      'Visible devices (current unit accessible, or unassigned with a tenant-level grant), ascending by (createdAt, deviceId). ' +
      'An unknown or invisible `deviceTypeId`/`organizationUnitId` is 400 `reference_not_found`.',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListDevicesParams): Promise<DevicePage> {
    return this.queryBus.execute(new ListDevicesQuery(caller, tenantNumber, params));
  }

  @Post('tenants/:tenantNumber/devices')
  @OperationId('CreateDeviceController_create')
  @RequirePermission('devices:write')
  @ApiCreatedResponse({
    type: DeviceResponse,
    description:
      '`Location: /v1/devices/{deviceId}`. Needs `devices:write` covering the target unit, or a tenant-level grant for an unassigned ' +
      'device. An unknown or invisible `deviceTypeId`/`organizationUnitId` is 400 `reference_not_found`.',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiConflictResponse({
    description: '`duplicate_dev_eui` (a non-retired device of any tenant holds it), `device_type_disabled`, `organization_unit_disabled`.',
  })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateDeviceRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceResponse> {
    const device = await this.commandBus.execute(new CreateDeviceCommand(caller, tenantNumber, body));
    res.location(`/v1/devices/${device.deviceId}`);
    return device;
  }

  @Get('devices/:deviceId')
  @OperationId('GetDeviceController_get')
  @RequirePermission('devices:read')
  @ApiOkResponse({ type: DeviceResponse })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope (its current unit is not accessible).' })
  get(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.queryBus.execute(new GetDeviceQuery(caller, deviceId));
  }

  @Patch('devices/:deviceId')
  @OperationId('UpdateDeviceController_update')
  @RequirePermission('devices:write')
  @ApiOkResponse({ type: DeviceResponse, description: '`devEui` and `deviceTypeId` are immutable (`unknown_property`).' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): the device is retired.' })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  update(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string, @Body() body: UpdateDeviceRequest): Promise<DeviceResponse> {
    return this.commandBus.execute(new UpdateDeviceCommand(caller, deviceId, { ...body }));
  }

  @Post('devices/:deviceId/disable')
  @OperationId('ChangeDeviceStatusController_disable')
  @HttpCode(200)
  @RequirePermission('devices:write')
  @ApiOkResponse({ type: DeviceResponse, description: '`active` → `disabled`: uplinks of a disabled device are not processed.' })
  @ApiConflictResponse({ description: INVALID_STATE })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  disable(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'disable'));
  }

  @Post('devices/:deviceId/reactivate')
  @OperationId('ChangeDeviceStatusController_reactivate')
  @HttpCode(200)
  @RequirePermission('devices:write')
  @ApiOkResponse({ type: DeviceResponse, description: '`disabled` → `active`.' })
  @ApiConflictResponse({ description: INVALID_STATE })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'reactivate'));
  }

  @Post('devices/:deviceId/retire')
  @OperationId('ChangeDeviceStatusController_retire')
  @HttpCode(200)
  @RequirePermission('devices:write')
  @ApiOkResponse({
    type: DeviceResponse,
    description: 'Terminal. Closes the open assignment period now and frees the devEui for a new device; the history stays.',
  })
  @ApiConflictResponse({ description: INVALID_STATE })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  retire(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'retire'));
  }
}
