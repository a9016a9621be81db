import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceFieldResponse } from '../dto/device-field.response.dto';
import type { DeviceFieldChanges } from '../dto/update-device-field.request.dto';

export class UpdateDeviceFieldCommand extends Command<DeviceFieldResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
    readonly key: string,
    readonly expectedLockVersion: number,
    readonly changes: DeviceFieldChanges,
  ) {
    super();
  }
}
