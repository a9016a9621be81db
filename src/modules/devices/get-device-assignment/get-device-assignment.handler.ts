import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DeviceAssignmentReader } from '../persistence/device-assignment.reader';
import { DeviceAssignmentResponse } from '../dto/device.response.dto';
import { GetDeviceAssignmentQuery } from './get-device-assignment.query';

@QueryHandler(GetDeviceAssignmentQuery)
export class GetDeviceAssignmentHandler implements IQueryHandler<GetDeviceAssignmentQuery, DeviceAssignmentResponse> {
  constructor(private readonly assignments: DeviceAssignmentReader) {}

  async execute({ caller, deviceId, deviceAssignmentId }: GetDeviceAssignmentQuery): Promise<DeviceAssignmentResponse> {
    const { access, period } = await this.assignments.resolve(caller.principal, deviceId, deviceAssignmentId);
    access.require(caller.permission, period.unit);
    return DeviceAssignmentResponse.of(period.assignment);
  }
}
