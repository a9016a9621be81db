import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { AssignDeviceHandler } from './assign-device/assign-device.handler';
import { ChangeDeviceStatusHandler } from './change-device-status/change-device-status.handler';
import { CreateDeviceHandler } from './create-device/create-device.handler';
import { DeviceAssignmentsController } from './device-assignments.controller';
import { DevicesController } from './devices.controller';
import { DeviceAssignmentReader } from './persistence/device-assignment.reader';
import { DeviceBulkStore } from './persistence/device-bulk.store';
import { DeviceReader } from './persistence/device.reader';
import { DeviceRepository } from './persistence/device.repository';
import { EndDeviceAssignmentHandler } from './end-device-assignment/end-device-assignment.handler';
import { GetDeviceAssignmentHandler } from './get-device-assignment/get-device-assignment.handler';
import { GetDeviceHandler } from './get-device/get-device.handler';
import { ListDeviceAssignmentsHandler } from './list-device-assignments/list-device-assignments.handler';
import { ListDevicesHandler } from './list-devices/list-devices.handler';
import { UpdateDeviceHandler } from './update-device/update-device.handler';

/** Devices, their lifecycle and assignment periods. */
@Module({
  imports: [PaginationModule],
  controllers: [DevicesController, DeviceAssignmentsController],
  providers: [
    DeviceReader,
    DeviceAssignmentReader,
    DeviceRepository,
    DeviceBulkStore,
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
  exports: [DeviceReader, DeviceBulkStore],
})
export class DevicesModule {}
