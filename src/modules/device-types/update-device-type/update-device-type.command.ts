import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceTypeResponse } from '../dto/device-type.response.dto';
import type { DeviceTypeChanges } from '../dto/update-device-type.request.dto';

export class UpdateDeviceTypeCommand extends Command<DeviceTypeResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
    readonly expectedLockVersion: number,
    readonly changes: DeviceTypeChanges,
  ) {
    super();
  }
}
