import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceResponse } from '../dto/device.response.dto';

export class GetDeviceQuery extends Query<DeviceResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
  ) {
    super();
  }
}
