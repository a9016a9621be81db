import { Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { setEtag } from '../../../shared/concurrency/if-match';
import { DeviceTypeStatus } from '../domain/device-type.entity';
import { DeviceTypeResponse } from '../domain/device-type.response.dto';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { IfMatch } from '../../../shared/concurrency/if-match';
import { ChangeDeviceTypeStatusCommand } from './change-device-type-status.command';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class ChangeDeviceTypeStatusController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':deviceTypeId/disable')
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

  @Post(':deviceTypeId/reactivate')
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
