import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceAssignmentResponse } from '../dto/device.response.dto';

export class GetDeviceAssignmentQuery extends Query<DeviceAssignmentResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
    readonly deviceAssignmentId: string,
  ) {
    super();
  }
}
