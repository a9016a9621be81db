import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { AssignDeviceController } from './assign-device/assign-device.controller';
import { AssignDeviceHandler } from './assign-device/assign-device.handler';
import { ChangeDeviceStatusController } from './change-device-status/change-device-status.controller';
import { ChangeDeviceStatusHandler } from './change-device-status/change-device-status.handler';
import { CreateDeviceController } from './create-device/create-device.controller';
import { CreateDeviceHandler } from './create-device/create-device.handler';
import { DeviceAssignmentReader } from './domain/device-assignment.reader';
import { DeviceReader } from './domain/device.reader';
import { DeviceRepository } from './domain/device.repository';
import { EndDeviceAssignmentController } from './end-device-assignment/end-device-assignment.controller';
import { EndDeviceAssignmentHandler } from './end-device-assignment/end-device-assignment.handler';
import { GetDeviceAssignmentController } from './get-device-assignment/get-device-assignment.controller';
import { GetDeviceAssignmentHandler } from './get-device-assignment/get-device-assignment.handler';
import { GetDeviceController } from './get-device/get-device.controller';
import { GetDeviceHandler } from './get-device/get-device.handler';
import { ListDeviceAssignmentsController } from './list-device-assignments/list-device-assignments.controller';
import { ListDeviceAssignmentsHandler } from './list-device-assignments/list-device-assignments.handler';
import { ListDevicesController } from './list-devices/list-devices.controller';
import { ListDevicesHandler } from './list-devices/list-devices.handler';
import { UpdateDeviceController } from './update-device/update-device.controller';
import { UpdateDeviceHandler } from './update-device/update-device.handler';

/** Design §5.9: devices, their lifecycle and assignment periods. */
@Module({
  imports: [PaginationModule],
  controllers: [
    ListDevicesController,
    CreateDeviceController,
    GetDeviceController,
    UpdateDeviceController,
    ChangeDeviceStatusController,
    ListDeviceAssignmentsController,
    AssignDeviceController,
    GetDeviceAssignmentController,
    EndDeviceAssignmentController,
  ],
  providers: [
    DeviceReader,
    DeviceAssignmentReader,
    DeviceRepository,
    ListDevicesHandler,
    CreateDeviceHandler,
    GetDeviceHandler,
    UpdateDeviceHandler,
    ChangeDeviceStatusHandler,
    ListDeviceAssignmentsHandler,
    AssignDeviceHandler,
    GetDeviceAssignmentHandler,
    EndDeviceAssignmentHandler,
  ],
  exports: [DeviceReader],
})
export class DevicesModule {}
