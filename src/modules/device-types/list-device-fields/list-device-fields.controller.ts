import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { DeviceFieldResponse } from '../domain/device-field.response.dto';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { ListDeviceFieldsQuery } from './list-device-fields.query';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class ListDeviceFieldsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceTypeId/fields')
  @RequirePermission('device-types:read')
  @ApiOkResponse({ type: [DeviceFieldResponse], description: 'A JSON array (not a page): active and deprecated fields, `createdAt` ascending.' })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).' })
  list(@CurrentCaller() caller: Caller, @UuidParam('deviceTypeId') deviceTypeId: string): Promise<DeviceFieldResponse[]> {
    return this.queryBus.execute(new ListDeviceFieldsQuery(caller, deviceTypeId));
  }
}
