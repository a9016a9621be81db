import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { DEVICES_DOCS } from './devices.docs';
import { DEVICES_PARAMETER_EXAMPLES, DEVICES_SCHEMA_EXAMPLES } from './devices.examples';
import { ReadById, TenantCreate, TenantList, WriteById } from '../../shared/http/routes';

const INVALID_STATE = '`invalid_state` (+`currentStatus`): not an allowed move from the current status (`active` ⇄ `disabled`, either → `retired`).';

@ApiTags('devices')
@ApiBearerAuth()
@ApiDocs(DEVICES_DOCS, { schemas: DEVICES_SCHEMA_EXAMPLES, parameters: DEVICES_PARAMETER_EXAMPLES })
@Controller('v1')
export class DevicesController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @TenantList('tenants/:tenantNumber/devices', {
    operationId: 'devices_list',
    permission: 'devices:read',
    type: DevicePage,
    description: 'Visible devices (current unit accessible, or unassigned with a tenant-level grant), ascending by (createdAt, deviceId). ' +
      'An unknown or invisible `deviceTypeId`/`organizationUnitId` is 400 `reference_not_found`.',
  })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListDevicesParams): Promise<DevicePage> {
    return this.queryBus.execute(new ListDevicesQuery(caller, tenantNumber, params));
  }

  @TenantCreate('tenants/:tenantNumber/devices', {
    operationId: 'devices_create',
    permission: 'devices:write',
    type: DeviceResponse,
    description: '`Location: /v1/devices/{deviceId}`. Needs `devices:write` covering the target unit, or a tenant-level grant for an unassigned ' +
      'device. An unknown or invisible `deviceTypeId`/`organizationUnitId` is 400 `reference_not_found`.',
    location: '/v1/devices/{deviceId}',
    conflict: '`duplicate_dev_eui` (a non-retired device of any tenant holds it), `device_type_disabled`, `organization_unit_disabled`.',
  })
  create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateDeviceRequest,
  ): Promise<DeviceResponse> {
    return this.commandBus.execute(new CreateDeviceCommand(caller, tenantNumber, body));
  }

  @ReadById('devices/:deviceId', {
    operationId: 'devices_get',
    permission: 'devices:read',
    type: DeviceResponse,
    notFound: 'Missing, in another tenant, or outside the caller’s scope (its current unit is not accessible).',
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.queryBus.execute(new GetDeviceQuery(caller, deviceId));
  }

  @WriteById('patch', 'devices/:deviceId', {
    operationId: 'devices_update',
    permission: 'devices:write',
    type: DeviceResponse,
    description: '`devEui` and `deviceTypeId` are immutable (`unknown_property`).',
    conflict: '`invalid_state` (+`currentStatus`): the device is retired.',
  })
  update(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string, @Body() body: UpdateDeviceRequest): Promise<DeviceResponse> {
    return this.commandBus.execute(new UpdateDeviceCommand(caller, deviceId, { ...body }));
  }

  @WriteById('post', 'devices/:deviceId/disable', {
    operationId: 'devices_disable',
    permission: 'devices:write',
    type: DeviceResponse,
    description: '`active` → `disabled`: uplinks of a disabled device are not processed.',
    conflict: INVALID_STATE,
  })
  disable(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'disable'));
  }

  @WriteById('post', 'devices/:deviceId/reactivate', {
    operationId: 'devices_reactivate',
    permission: 'devices:write',
    type: DeviceResponse,
    description: '`disabled` → `active`.',
    conflict: INVALID_STATE,
  })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'reactivate'));
  }

  @WriteById('post', 'devices/:deviceId/retire', {
    operationId: 'devices_retire',
    permission: 'devices:write',
    type: DeviceResponse,
    description: 'Terminal. Closes the open assignment period now and frees the devEui for a new device; the history stays.',
    conflict: INVALID_STATE,
  })
  retire(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'retire'));
  }
}
