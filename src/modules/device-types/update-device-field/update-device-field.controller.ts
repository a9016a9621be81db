import { Body, Controller, Patch, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { setEtag } from '../../../shared/concurrency/if-match';
import { DeviceFieldResponse } from '../domain/device-field.response.dto';
import { FieldIfMatch, FieldKeyParam } from '../device-type-path.params';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { UpdateDeviceFieldCommand } from './update-device-field.command';
import { UpdateDeviceFieldRequest } from './update-device-field.request.dto';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class UpdateDeviceFieldController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch(':deviceTypeId/fields/:key')
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
}
