import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceFieldResponse } from '../dto/device-field.response.dto';

export class ListDeviceFieldsQuery extends Query<DeviceFieldResponse[]> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
  ) {
    super();
  }
}
