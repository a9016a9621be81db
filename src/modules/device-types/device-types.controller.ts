import { Body, Controller, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
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
import { IfMatch, setEtag } from '../../shared/concurrency/if-match';
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

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1')
export class DeviceTypesController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get('tenants/:tenantNumber/device-types')
  @OperationId('ListDeviceTypesController_list')
  @RequirePermission('device-types:read')
  @ApiOkResponse({ type: DeviceTypePage, description: 'Ascending by (createdAt, deviceTypeId); any grant in the tenant may read.' })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  list(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListDeviceTypesParams,
  ): Promise<DeviceTypePage> {
    return this.queryBus.execute(new ListDeviceTypesQuery(caller, tenantNumber, params));
  }

  @Post('tenants/:tenantNumber/device-types')
  @OperationId('CreateDeviceTypeController_create')
  @RequirePermission('device-types:write')
  @ApiCreatedResponse({ type: DeviceTypeResponse, description: '`Location: /v1/device-types/{deviceTypeId}`, `ETag: "1"`.' })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`duplicate_key` (per tenant).' })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateDeviceTypeRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceTypeResponse> {
    const type = await this.commandBus.execute(new CreateDeviceTypeCommand(caller, tenantNumber, body));
    res.location(`/v1/device-types/${type.deviceTypeId}`);
    setEtag(res, type);
    return type;
  }

  @Get('device-types/:deviceTypeId')
  @OperationId('GetDeviceTypeController_get')
  @RequirePermission('device-types:read')
  @ApiOkResponse({ type: DeviceTypeResponse, description: 'With `ETag: "<lockVersion>"`.' })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `device_type`).' })
  async get(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceTypeResponse> {
    const type = await this.queryBus.execute(new GetDeviceTypeQuery(caller, deviceTypeId));
    setEtag(res, type);
    return type;
  }

  @Patch('device-types/:deviceTypeId')
  @OperationId('UpdateDeviceTypeController_update')
  @RequirePermission('device-types:write')
  @ApiOkResponse({ type: DeviceTypeResponse, description: 'lockVersion + 1, new `ETag`. `key` is immutable (`unknown_property`).' })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`).' })
  async update(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @IfMatch() expectedLockVersion: number,
    @Body() body: UpdateDeviceTypeRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceTypeResponse> {
    const type = await this.commandBus.execute(new UpdateDeviceTypeCommand(caller, deviceTypeId, expectedLockVersion, { ...body }));
    setEtag(res, type);
    return type;
  }

  @Post('device-types/:deviceTypeId/disable')
  @OperationId('ChangeDeviceTypeStatusController_disable')
  @HttpCode(200)
  @RequirePermission('device-types:write')
  @ApiOkResponse({ type: DeviceTypeResponse, description: 'No new devices of this type; its uplinks are stored, not processed. New `ETag`.' })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`); `invalid_state` (+`currentStatus`): already disabled.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).' })
  disable(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @IfMatch() expectedLockVersion: number,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceTypeResponse> {
    return this.change(caller, deviceTypeId, expectedLockVersion, 'disabled', res);
  }

  @Post('device-types/:deviceTypeId/reactivate')
  @OperationId('ChangeDeviceTypeStatusController_reactivate')
  @HttpCode(200)
  @RequirePermission('device-types:write')
  @ApiOkResponse({ type: DeviceTypeResponse, description: 'Active again. New `ETag`.' })
  @ApiConflictResponse({ description: '`lock_version_mismatch` (+`currentLockVersion`); `invalid_state` (+`currentStatus`): already active.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).' })
  reactivate(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @IfMatch() expectedLockVersion: number,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceTypeResponse> {
    return this.change(caller, deviceTypeId, expectedLockVersion, 'active', res);
  }

  private async change(
    caller: Caller,
    deviceTypeId: string,
    expectedLockVersion: number,
    status: DeviceTypeStatus,
    res: Response,
  ): Promise<DeviceTypeResponse> {
    const type = await this.commandBus.execute(new ChangeDeviceTypeStatusCommand(caller, deviceTypeId, expectedLockVersion, status));
    setEtag(res, type);
    return type;
  }
}
