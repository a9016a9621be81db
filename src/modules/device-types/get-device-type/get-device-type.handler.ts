import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeviceTypeReader } from '../persistence/device-type.reader';
import { DeviceTypeResponse } from '../dto/device-type.response.dto';
import { GetDeviceTypeQuery } from './get-device-type.query';

/** One device type; readable through any grant in its tenant (`device-types:read[*]`). */
@QueryHandler(GetDeviceTypeQuery)
export class GetDeviceTypeHandler implements IQueryHandler<GetDeviceTypeQuery, DeviceTypeResponse> {
  constructor(private readonly reader: DeviceTypeReader) {}

  async execute({ caller, deviceTypeId }: GetDeviceTypeQuery): Promise<DeviceTypeResponse> {
    const { access, deviceType } = await this.reader.resolve(caller.principal, deviceTypeId);
    access.requireAnywhere(caller.permission);
    return DeviceTypeResponse.of(deviceType);
  }
}
