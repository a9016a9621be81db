import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ChangeDeviceTypeStatusController } from './change-device-type-status/change-device-type-status.controller';
import { ChangeDeviceTypeStatusHandler } from './change-device-type-status/change-device-type-status.handler';
import { CreateDeviceFieldController } from './create-device-field/create-device-field.controller';
import { CreateDeviceFieldHandler } from './create-device-field/create-device-field.handler';
import { CreateDeviceTypeController } from './create-device-type/create-device-type.controller';
import { CreateDeviceTypeHandler } from './create-device-type/create-device-type.handler';
import { DeprecateDeviceFieldController } from './deprecate-device-field/deprecate-device-field.controller';
import { DeprecateDeviceFieldHandler } from './deprecate-device-field/deprecate-device-field.handler';
import { DeviceFieldReader } from './domain/device-field.reader';
import { DeviceTypeReader } from './domain/device-type.reader';
import { DeviceTypeRepository } from './domain/device-type.repository';
import { GetDeviceFieldController } from './get-device-field/get-device-field.controller';
import { GetDeviceFieldHandler } from './get-device-field/get-device-field.handler';
import { GetDeviceTypeController } from './get-device-type/get-device-type.controller';
import { GetDeviceTypeHandler } from './get-device-type/get-device-type.handler';
import { ListDeviceFieldsController } from './list-device-fields/list-device-fields.controller';
import { ListDeviceFieldsHandler } from './list-device-fields/list-device-fields.handler';
import { ListDeviceTypesController } from './list-device-types/list-device-types.controller';
import { ListDeviceTypesHandler } from './list-device-types/list-device-types.handler';
import { UpdateDeviceFieldController } from './update-device-field/update-device-field.controller';
import { UpdateDeviceFieldHandler } from './update-device-field/update-device-field.handler';
import { UpdateDeviceTypeController } from './update-device-type/update-device-type.controller';
import { UpdateDeviceTypeHandler } from './update-device-type/update-device-type.handler';

/** Design §5.8: the tenant's device types and their field definitions (the telemetry contract). */
@Module({
  imports: [PaginationModule],
  controllers: [
    ListDeviceTypesController,
    CreateDeviceTypeController,
    GetDeviceTypeController,
    UpdateDeviceTypeController,
    ChangeDeviceTypeStatusController,
    ListDeviceFieldsController,
    CreateDeviceFieldController,
    GetDeviceFieldController,
    UpdateDeviceFieldController,
    DeprecateDeviceFieldController,
  ],
  providers: [
    DeviceTypeRepository,
    DeviceTypeReader,
    DeviceFieldReader,
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
  exports: [DeviceTypeReader, DeviceFieldReader],
})
export class DeviceTypesModule {}
