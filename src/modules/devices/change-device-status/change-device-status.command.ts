import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceResponse } from '../dto/device.response.dto';

export type DeviceStatusMove = 'disable' | 'reactivate' | 'retire';

export class ChangeDeviceStatusCommand extends Command<DeviceResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
    readonly move: DeviceStatusMove,
  ) {
    super();
  }
}
