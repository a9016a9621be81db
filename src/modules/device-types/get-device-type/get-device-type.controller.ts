import { Controller, Get, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { setEtag } from '../../../shared/concurrency/if-match';
import { DeviceTypeResponse } from '../domain/device-type.response.dto';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { GetDeviceTypeQuery } from './get-device-type.query';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class GetDeviceTypeController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceTypeId')
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
}
