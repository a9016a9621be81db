import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Page } from '../../../shared/pagination/page';
import type { DeviceTypeResponse } from '../dto/device-type.response.dto';
import type { ListDeviceTypesParams } from '../dto/list-device-types.request.dto';

export class ListDeviceTypesQuery extends Query<Page<DeviceTypeResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListDeviceTypesParams,
  ) {
    super();
  }
}
