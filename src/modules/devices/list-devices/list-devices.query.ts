import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Page } from '../../../shared/pagination/page';
import type { DeviceResponse } from '../dto/device.response.dto';
import type { ListDevicesParams } from '../dto/list-devices.request.dto';

export class ListDevicesQuery extends Query<Page<DeviceResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListDevicesParams,
  ) {
    super();
  }
}
