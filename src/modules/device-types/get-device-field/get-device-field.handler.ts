import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeviceFieldReader } from '../persistence/device-field.reader';
import { DeviceFieldResponse } from '../dto/device-field.response.dto';
import { DeviceTypeReader } from '../persistence/device-type.reader';
import { GetDeviceFieldQuery } from './get-device-field.query';

/** One field definition of a visible device type, by key. */
@QueryHandler(GetDeviceFieldQuery)
export class GetDeviceFieldHandler implements IQueryHandler<GetDeviceFieldQuery, DeviceFieldResponse> {
  constructor(
    private readonly types: DeviceTypeReader,
    private readonly fields: DeviceFieldReader,
  ) {}

  async execute({ caller, deviceTypeId, key }: GetDeviceFieldQuery): Promise<DeviceFieldResponse> {
    const { access } = await this.types.resolve(caller.principal, deviceTypeId);
    const field = await this.fields.getByKey(deviceTypeId, key);
    access.requireAnywhere(caller.permission);
    return DeviceFieldResponse.of(field);
  }
}
