import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ChangeDeviceTypeStatusHandler } from './change-device-type-status/change-device-type-status.handler';
import { CreateDeviceFieldHandler } from './create-device-field/create-device-field.handler';
import { CreateDeviceTypeHandler } from './create-device-type/create-device-type.handler';
import { DeprecateDeviceFieldHandler } from './deprecate-device-field/deprecate-device-field.handler';
import { DeviceFieldsController } from './device-fields.controller';
import { DeviceTypesController } from './device-types.controller';
import { DeviceFieldReader } from './persistence/device-field.reader';
import { DeviceTypeBulkStore } from './persistence/device-type-bulk.store';
import { DeviceTypeReader } from './persistence/device-type.reader';
import { DeviceTypeRepository } from './persistence/device-type.repository';
import { FieldContractReader } from './persistence/field-contract.reader';
import { GetDeviceFieldHandler } from './get-device-field/get-device-field.handler';
import { GetDeviceTypeHandler } from './get-device-type/get-device-type.handler';
import { ListDeviceFieldsHandler } from './list-device-fields/list-device-fields.handler';
import { ListDeviceTypesHandler } from './list-device-types/list-device-types.handler';
import { UpdateDeviceFieldHandler } from './update-device-field/update-device-field.handler';
import { UpdateDeviceTypeHandler } from './update-device-type/update-device-type.handler';

/** The tenant's device types and their field definitions (the telemetry contract, read by other modules through FieldContractReader). */
@Module({
  imports: [PaginationModule],
  controllers: [DeviceTypesController, DeviceFieldsController],
  providers: [
    DeviceTypeRepository,
    DeviceTypeBulkStore,
    DeviceTypeReader,
    DeviceFieldReader,
    FieldContractReader,
    ListDeviceTypesHandler,
    CreateDeviceTypeHandler,
    GetDeviceTypeHandler,
    UpdateDeviceTypeHandler,
    ChangeDeviceTypeStatusHandler,
    ListDeviceFieldsHandler,
    CreateDeviceFieldHandler,
    GetDeviceFieldHandler,
    UpdateDeviceFieldHandler,
    DeprecateDeviceFieldHandler,
  ],
  // Other modules read field definitions only through FieldContractReader; the legacy import creates types through DeviceTypeBulkStore.
  exports: [DeviceTypeReader, FieldContractReader, DeviceTypeBulkStore],
})
export class DeviceTypesModule {}
