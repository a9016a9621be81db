import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceResponse } from '../dto/device.response.dto';
import type { DeviceChanges } from '../dto/update-device.request.dto';

export class UpdateDeviceCommand extends Command<DeviceResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
    readonly changes: DeviceChanges,
  ) {
    super();
  }
}
