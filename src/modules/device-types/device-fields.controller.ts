import { Body, Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { CreateDeviceFieldCommand } from './create-device-field/create-device-field.command';
import { CreateDeviceFieldRequest } from './dto/create-device-field.request.dto';
import { DeprecateDeviceFieldCommand } from './deprecate-device-field/deprecate-device-field.command';
import { FieldIfMatch, FieldKeyParam } from './device-type-path.params';
import { DeviceFieldResponse } from './dto/device-field.response.dto';
import { GetDeviceFieldQuery } from './get-device-field/get-device-field.query';
import { ListDeviceFieldsQuery } from './list-device-fields/list-device-fields.query';
import { UpdateDeviceFieldCommand } from './update-device-field/update-device-field.command';
import { UpdateDeviceFieldRequest } from './dto/update-device-field.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { DEVICE_FIELDS_DOCS } from './device-fields.docs';
import { ReadById, Route, WriteById } from '../../shared/http/routes';

@ApiTags('device-types')
@ApiBearerAuth()
@ApiDocs(DEVICE_FIELDS_DOCS)
@Controller('v1/device-types')
export class DeviceFieldsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', ':deviceTypeId/fields', {
    operationId: 'deviceFields_list',
    permission: 'device-types:read',
    type: [DeviceFieldResponse],
    description: 'A JSON array (not a page): active and deprecated fields, `createdAt` ascending.',
    notFound: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).',
  })
  list(@CurrentCaller() caller: Caller, @UuidParam('deviceTypeId') deviceTypeId: string): Promise<DeviceFieldResponse[]> {
    return this.queryBus.execute(new ListDeviceFieldsQuery(caller, deviceTypeId));
  }

  @Route('post', ':deviceTypeId/fields', {
    operationId: 'deviceFields_create',
    permission: 'device-types:write',
    type: DeviceFieldResponse,
    description: '`lockVersion` 1, `ETag: "1"`, `Location: /v1/device-types/{deviceTypeId}/fields/{key}`. A disabled type accepts new fields.',
    location: '/v1/device-types/{deviceTypeId}/fields/{key}',
    etag: true,
    forbidden: '`missing_permission`: needs the permission through a tenant-level grant.',
    notFound: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).',
    conflict: '`duplicate_key` (deprecated keys stay taken); `max_fields` (200 active fields per type).',
  })
  create(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @Body() body: CreateDeviceFieldRequest,
  ): Promise<DeviceFieldResponse> {
    return this.commandBus.execute(new CreateDeviceFieldCommand(caller, deviceTypeId, body));
  }

  @ReadById(':deviceTypeId/fields/:key', {
    operationId: 'deviceFields_get',
    permission: 'device-types:read',
    type: DeviceFieldResponse,
    description: 'Active or deprecated; with `ETag: "<lockVersion>"`.',
    etag: true,
    notFound: '`device_type` (missing or invisible type) or `device_field` (no field with this key).',
  })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @FieldKeyParam() key: string,
  ): Promise<DeviceFieldResponse> {
    return this.queryBus.execute(new GetDeviceFieldQuery(caller, deviceTypeId, key));
  }

  @WriteById('patch', ':deviceTypeId/fields/:key', {
    operationId: 'deviceFields_update',
    permission: 'device-types:write',
    type: DeviceFieldResponse,
    description: 'lockVersion + 1, new `ETag`.',
    etag: true,
    forbidden: '`missing_permission`: needs the permission through a tenant-level grant.',
    notFound: '`device_type` (missing or invisible type) or `device_field` (no field with this key).',
    conflict: '`lock_version_mismatch` (+`currentLockVersion`); `invalid_state` (+`currentStatus`): deprecated.',
  })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @FieldKeyParam() key: string,
    @FieldIfMatch() expectedLockVersion: number,
    @Body() body: UpdateDeviceFieldRequest,
  ): Promise<DeviceFieldResponse> {
    return this.commandBus.execute(new UpdateDeviceFieldCommand(caller, deviceTypeId, key, expectedLockVersion, { ...body }));
  }

  @WriteById('post', ':deviceTypeId/fields/:key/deprecate', {
    operationId: 'deviceFields_deprecate',
    permission: 'device-types:write',
    type: DeviceFieldResponse,
    description: '`deprecated` (terminal), `deprecatedAt` set, new `ETag`. The key stays taken; the field stays listed.',
    etag: true,
    forbidden: '`missing_permission`: needs the permission through a tenant-level grant.',
    notFound: '`device_type` (missing or invisible type) or `device_field` (no field with this key).',
    conflict: '`lock_version_mismatch` (+`currentLockVersion`); `invalid_state` (+`currentStatus`): already deprecated.',
  })
  deprecate(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @FieldKeyParam() key: string,
    @FieldIfMatch() expectedLockVersion: number,
  ): Promise<DeviceFieldResponse> {
    return this.commandBus.execute(new DeprecateDeviceFieldCommand(caller, deviceTypeId, key, expectedLockVersion));
  }
}
