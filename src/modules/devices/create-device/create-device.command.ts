import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceResponse } from '../dto/device.response.dto';
import type { CreateDeviceRequest } from '../dto/create-device.request.dto';

export class CreateDeviceCommand extends Command<DeviceResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly input: CreateDeviceRequest,
  ) {
    super();
  }
}
