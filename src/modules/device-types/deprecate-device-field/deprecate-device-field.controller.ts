import { Controller, HttpCode, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { setEtag } from '../../../shared/concurrency/if-match';
import { DeviceFieldResponse } from '../domain/device-field.response.dto';
import { FieldIfMatch, FieldKeyParam } from '../device-type-path.params';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { DeprecateDeviceFieldCommand } from './deprecate-device-field.command';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class DeprecateDeviceFieldController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':deviceTypeId/fields/:key/deprecate')
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
