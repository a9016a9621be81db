import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { IfMatch } from '../../shared/concurrency/if-match';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { ChangeDeviceTypeStatusCommand } from './change-device-type-status/change-device-type-status.command';
import { CreateDeviceTypeCommand } from './create-device-type/create-device-type.command';
import { CreateDeviceTypeRequest } from './dto/create-device-type.request.dto';
import { DeviceTypeStatus } from './persistence/device-type.entity';
import { DeviceTypeResponse } from './dto/device-type.response.dto';
import { GetDeviceTypeQuery } from './get-device-type/get-device-type.query';
import { DeviceTypePage } from './dto/device-type-page.response.dto';
import { ListDeviceTypesQuery } from './list-device-types/list-device-types.query';
import { ListDeviceTypesParams } from './dto/list-device-types.request.dto';
import { UpdateDeviceTypeCommand } from './update-device-type/update-device-type.command';
import { UpdateDeviceTypeRequest } from './dto/update-device-type.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { DEVICE_TYPES_DOCS } from './device-types.docs';
import { DEVICE_TYPES_PARAMETER_EXAMPLES, DEVICE_TYPES_SCHEMA_EXAMPLES } from './device-types.examples';
import { ReadById, TenantCreate, TenantList, WriteById } from '../../shared/http/routes';

@ApiTags('device-types')
@ApiBearerAuth()
@ApiDocs(DEVICE_TYPES_DOCS, { schemas: DEVICE_TYPES_SCHEMA_EXAMPLES, parameters: DEVICE_TYPES_PARAMETER_EXAMPLES })
@Controller('v1')
export class DeviceTypesController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @TenantList('tenants/:tenantNumber/device-types', {
    operationId: 'deviceTypes_list',
    permission: 'device-types:read',
    type: DeviceTypePage,
    description: 'Ascending by (createdAt, deviceTypeId); any grant in the tenant may read.',
  })
  list(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListDeviceTypesParams,
  ): Promise<DeviceTypePage> {
    return this.queryBus.execute(new ListDeviceTypesQuery(caller, tenantNumber, params));
  }

  @TenantCreate('tenants/:tenantNumber/device-types', {
    operationId: 'deviceTypes_create',
    permission: 'device-types:write',
    type: DeviceTypeResponse,
    description: '`Location: /v1/device-types/{deviceTypeId}`, `ETag: "1"`.',
    location: '/v1/device-types/{deviceTypeId}',
    etag: true,
    forbidden: '`missing_permission`: needs the permission through a tenant-level grant.',
    conflict: '`duplicate_key` (per tenant).',
  })
  create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateDeviceTypeRequest,
  ): Promise<DeviceTypeResponse> {
    return this.commandBus.execute(new CreateDeviceTypeCommand(caller, tenantNumber, body));
  }

  @ReadById('device-types/:deviceTypeId', {
    operationId: 'deviceTypes_get',
    permission: 'device-types:read',
    type: DeviceTypeResponse,
    description: 'With `ETag: "<lockVersion>"`.',
    etag: true,
    notFound: 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `device_type`).',
  })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
  ): Promise<DeviceTypeResponse> {
    return this.queryBus.execute(new GetDeviceTypeQuery(caller, deviceTypeId));
  }

  @WriteById('patch', 'device-types/:deviceTypeId', {
    operationId: 'deviceTypes_update',
    permission: 'device-types:write',
    type: DeviceTypeResponse,
    description: 'lockVersion + 1, new `ETag`. `key` is immutable (`unknown_property`).',
    etag: true,
    forbidden: '`missing_permission`: needs the permission through a tenant-level grant.',
    notFound: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).',
    conflict: '`lock_version_mismatch` (+`currentLockVersion`).',
  })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: UpdateDeviceTypeRequest,
  ): Promise<DeviceTypeResponse> {
    return this.commandBus.execute(new UpdateDeviceTypeCommand(caller, deviceTypeId, expectedLockVersion, { ...body }));
  }

  @WriteById('post', 'device-types/:deviceTypeId/disable', {
    operationId: 'deviceTypes_disable',
    permission: 'device-types:write',
    type: DeviceTypeResponse,
    etag: true,
    description: 'No new devices of this type; its uplinks are stored, not processed. New `ETag`.',
    forbidden: '`missing_permission`: needs the permission through a tenant-level grant.',
    notFound: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).',
    conflict: '`lock_version_mismatch` (+`currentLockVersion`); `invalid_state` (+`currentStatus`): already disabled.',
  })
  disable(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @IfMatch() expectedLockVersion: number,
  ): Promise<DeviceTypeResponse> {
    return this.change(caller, deviceTypeId, expectedLockVersion, 'disabled');
  }

  @WriteById('post', 'device-types/:deviceTypeId/reactivate', {
    operationId: 'deviceTypes_reactivate',
    permission: 'device-types:write',
    type: DeviceTypeResponse,
    etag: true,
    description: 'Active again. New `ETag`.',
    forbidden: '`missing_permission`: needs the permission through a tenant-level grant.',
    notFound: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).',
    conflict: '`lock_version_mismatch` (+`currentLockVersion`); `invalid_state` (+`currentStatus`): already active.',
  })
  reactivate(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @IfMatch() expectedLockVersion: number,
  ): Promise<DeviceTypeResponse> {
    return this.change(caller, deviceTypeId, expectedLockVersion, 'active');
  }

  private change(caller: Caller, deviceTypeId: string, expectedLockVersion: number, status: DeviceTypeStatus): Promise<DeviceTypeResponse> {
    return this.commandBus.execute(new ChangeDeviceTypeStatusCommand(caller, deviceTypeId, expectedLockVersion, status));
  }
}
