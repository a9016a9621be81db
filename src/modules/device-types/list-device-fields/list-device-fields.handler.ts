import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeviceFieldReader } from '../persistence/device-field.reader';
import { DeviceFieldResponse } from '../dto/device-field.response.dto';
import { DeviceTypeReader } from '../persistence/device-type.reader';
import { ListDeviceFieldsQuery } from './list-device-fields.query';

/** Spec: every field definition of the type, active and deprecated (at most 200 active, so no paging). */
@QueryHandler(ListDeviceFieldsQuery)
export class ListDeviceFieldsHandler implements IQueryHandler<ListDeviceFieldsQuery, DeviceFieldResponse[]> {
  constructor(
    private readonly types: DeviceTypeReader,
    private readonly fields: DeviceFieldReader,
  ) {}

  async execute({ caller, deviceTypeId }: ListDeviceFieldsQuery): Promise<DeviceFieldResponse[]> {
    const { access } = await this.types.resolve(caller.principal, deviceTypeId);
    access.requireAnywhere(caller.permission);
    return (await this.fields.all(deviceTypeId)).map((field) => DeviceFieldResponse.of(field));
  }
}
