import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { PageResponse } from '../../../shared/pagination/page';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { DeviceResponse } from '../domain/device.response.dto';
import { ListDevicesQuery } from './list-devices.query';
import { ListDevicesParams } from './list-devices.request.dto';

export class DevicePage extends PageResponse(DeviceResponse) {}

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/tenants')
export class ListDevicesController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':tenantNumber/devices')
  @RequirePermission('devices:read')
  @ApiOkResponse({
    type: DevicePage,
    description:
      'Visible devices (current unit accessible, or unassigned with a tenant-level grant), ascending by (createdAt, deviceId). ' +
      'An unknown or invisible `deviceTypeId`/`organizationUnitId` is 400 `reference_not_found`.',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListDevicesParams): Promise<DevicePage> {
    return this.queryBus.execute(new ListDevicesQuery(caller, tenantNumber, params));
  }
}
