import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { DeviceTypePage } from './device-type-page.response.dto';
import { ListDeviceTypesQuery } from './list-device-types.query';
import { ListDeviceTypesParams } from './list-device-types.request.dto';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/tenants')
export class ListDeviceTypesController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':tenantNumber/device-types')
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
}
