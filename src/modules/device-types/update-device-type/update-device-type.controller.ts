import { Body, Controller, Patch, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { setEtag } from '../../../shared/concurrency/if-match';
import { DeviceTypeResponse } from '../domain/device-type.response.dto';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { IfMatch } from '../../../shared/concurrency/if-match';
import { UpdateDeviceTypeCommand } from './update-device-type.command';
import { UpdateDeviceTypeRequest } from './update-device-type.request.dto';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class UpdateDeviceTypeController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch(':deviceTypeId')
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
}
