import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeviceFieldResponse } from '../dto/device-field.response.dto';
import type { CreateDeviceFieldRequest } from '../dto/create-device-field.request.dto';

export class CreateDeviceFieldCommand extends Command<DeviceFieldResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceTypeId: string,
    readonly input: CreateDeviceFieldRequest,
  ) {
    super();
  }
}
