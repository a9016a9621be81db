import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceFieldResponse } from '../dto/device-field.response.dto';

export class GetDeviceFieldQuery extends Query<DeviceFieldResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
    readonly key: string,
  ) {
    super();
  }
}
