import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeviceReader } from '../persistence/device.reader';
import { DeviceResponse } from '../dto/device.response.dto';
import { GetDeviceQuery } from './get-device.query';

/** Spec: the device with its current visible assignment. */
@QueryHandler(GetDeviceQuery)
export class GetDeviceHandler implements IQueryHandler<GetDeviceQuery, DeviceResponse> {
  constructor(private readonly reader: DeviceReader) {}

  async execute({ caller, deviceId }: GetDeviceQuery): Promise<DeviceResponse> {
    const { access, device, current } = await this.reader.resolve(caller.principal, deviceId);
    access.require(caller.permission, this.reader.target(current));
    return DeviceResponse.of(device, current?.assignment ?? null);
  }
}
