import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceTypeStatus } from '../persistence/device-type.entity';
import type { DeviceTypeResponse } from '../dto/device-type.response.dto';

export class ChangeDeviceTypeStatusCommand extends Command<DeviceTypeResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
    readonly expectedLockVersion: number,
    readonly status: DeviceTypeStatus,
  ) {
    super();
  }
}
