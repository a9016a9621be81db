import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceAssignmentResponse } from '../dto/device.response.dto';

export class EndDeviceAssignmentCommand extends Command<DeviceAssignmentResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
    readonly deviceAssignmentId: string,
    readonly validTo: string | undefined,
  ) {
    super();
  }
}
