import { Body, Controller, Get, HttpCode, Patch, Post, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { setEtag } from '../../shared/concurrency/if-match';
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

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class DeviceFieldsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get(':deviceTypeId/fields')
  @OperationId('ListDeviceFieldsController_list')
  @RequirePermission('device-types:read')
  @ApiOkResponse({ type: [DeviceFieldResponse], description: 'A JSON array (not a page): active and deprecated fields, `createdAt` ascending.' })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).' })
  list(@CurrentCaller() caller: Caller, @UuidParam('deviceTypeId') deviceTypeId: string): Promise<DeviceFieldResponse[]> {
    return this.queryBus.execute(new ListDeviceFieldsQuery(caller, deviceTypeId));
  }

  @Post(':deviceTypeId/fields')
  @OperationId('CreateDeviceFieldController_create')
  @RequirePermission('device-types:write')
  @ApiCreatedResponse({
    type: DeviceFieldResponse,
    description: '`lockVersion` 1, `ETag: "1"`, `Location: /v1/device-types/{deviceTypeId}/fields/{key}`. A disabled type accepts new fields.',
  })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`duplicate_key` (deprecated keys stay taken); `max_fields` (200 active fields per type).' })
  async create(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @Body() body: CreateDeviceFieldRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceFieldResponse> {
    const field = await this.commandBus.execute(new CreateDeviceFieldCommand(caller, deviceTypeId, body));
    res.location(`/v1/device-types/${field.deviceTypeId}/fields/${field.key}`);
    setEtag(res, field);
    return field;
  }

  @Get(':deviceTypeId/fields/:key')
  @OperationId('GetDeviceFieldController_get')
  @RequirePermission('device-types:read')
  @ApiOkResponse({ type: DeviceFieldResponse, description: 'Active or deprecated; with `ETag: "<lockVersion>"`.' })
  @ApiNotFoundResponse({ description: '`device_type` (missing or invisible type) or `device_field` (no field with this key).' })
  async get(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @FieldKeyParam() key: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceFieldResponse> {
    const field = await this.queryBus.execute(new GetDeviceFieldQuery(caller, deviceTypeId, key));
    setEtag(res, field);
    return field;
  }

  @Patch(':deviceTypeId/fields/:key')
  @OperationId('UpdateDeviceFieldController_update')
  @RequirePermission('device-types:write')
  @ApiOkResponse({ type: DeviceFieldResponse, description: 'lockVersion + 1, new `ETag`.' })
  @ApiNotFoundResponse({ description: '`device_type` (missing or invisible type) or `device_field` (no field with this key).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`); `invalid_state` (+`currentStatus`): deprecated.' })
  async update(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @FieldKeyParam() key: string,
    @FieldIfMatch() expectedLockVersion: number,
    @Body() body: UpdateDeviceFieldRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceFieldResponse> {
    const field = await this.commandBus.execute(new UpdateDeviceFieldCommand(caller, deviceTypeId, key, expectedLockVersion, { ...body }));
    setEtag(res, field);
    return field;
  }

  @Post(':deviceTypeId/fields/:key/deprecate')
  @OperationId('DeprecateDeviceFieldController_deprecate')
  @HttpCode(200)
  @RequirePermission('device-types:write')
  @ApiOkResponse({
    type: DeviceFieldResponse,
    description: '`deprecated` (terminal), `deprecatedAt` set, new `ETag`. The key stays taken; the field stays listed.',
  })
  @ApiNotFoundResponse({ description: '`device_type` (missing or invisible type) or `device_field` (no field with this key).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`); `invalid_state` (+`currentStatus`): already deprecated.' })
  async deprecate(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @FieldKeyParam() key: string,
    @FieldIfMatch() expectedLockVersion: number,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceFieldResponse> {
    const field = await this.commandBus.execute(new DeprecateDeviceFieldCommand(caller, deviceTypeId, key, expectedLockVersion));
    setEtag(res, field);
    return field;
  }
}
