import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceFieldResponse } from '../dto/device-field.response.dto';

export class DeprecateDeviceFieldCommand extends Command<DeviceFieldResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
    readonly key: string,
    readonly expectedLockVersion: number,
  ) {
    super();
  }
}
