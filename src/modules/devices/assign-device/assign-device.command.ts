import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceAssignmentResponse } from '../dto/device.response.dto';
import type { AssignDeviceRequest } from '../dto/assign-device.request.dto';

export class AssignDeviceCommand extends Command<DeviceAssignmentResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
    readonly input: AssignDeviceRequest,
  ) {
    super();
  }
}
