import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { AscendingPageParams, Page } from '../../../shared/pagination/page';
import type { DeviceAssignmentResponse } from '../dto/device.response.dto';

export class ListDeviceAssignmentsQuery extends Query<Page<DeviceAssignmentResponse>> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
    readonly params: AscendingPageParams,
  ) {
    super();
  }
}
