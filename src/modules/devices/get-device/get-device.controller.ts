import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { DeviceResponse } from '../domain/device.response.dto';
import { GetDeviceQuery } from './get-device.query';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/devices')
export class GetDeviceController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceId')
  @RequirePermission('devices:read')
  @ApiOkResponse({ type: DeviceResponse })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope (its current unit is not accessible).' })
  get(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.queryBus.execute(new GetDeviceQuery(caller, deviceId));
  }
}
