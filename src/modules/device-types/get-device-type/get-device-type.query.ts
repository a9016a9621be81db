import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceTypeResponse } from '../dto/device-type.response.dto';

export class GetDeviceTypeQuery extends Query<DeviceTypeResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
  ) {
    super();
  }
}
