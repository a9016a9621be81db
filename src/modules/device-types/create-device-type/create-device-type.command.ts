import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceTypeResponse } from '../dto/device-type.response.dto';
import type { CreateDeviceTypeRequest } from '../dto/create-device-type.request.dto';

export class CreateDeviceTypeCommand extends Command<DeviceTypeResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly input: CreateDeviceTypeRequest,
  ) {
    super();
  }
}
