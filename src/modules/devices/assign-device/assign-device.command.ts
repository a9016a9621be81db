import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceAssignmentResponse } from '../domain/device.response.dto';
import type { AssignDeviceRequest } from './assign-device.request.dto';

export class AssignDeviceCommand extends Command<DeviceAssignmentResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
    readonly input: AssignDeviceRequest,
  ) {
    super();
  }
}
