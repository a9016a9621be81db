import { Controller, Get, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { setEtag } from '../../../shared/concurrency/if-match';
import { DeviceFieldResponse } from '../domain/device-field.response.dto';
import { FieldKeyParam } from '../device-type-path.params';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { GetDeviceFieldQuery } from './get-device-field.query';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class GetDeviceFieldController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceTypeId/fields/:key')
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
}
