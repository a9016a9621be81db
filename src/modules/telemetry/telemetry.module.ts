import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { DeviceTypesModule } from '../device-types';
import { DevicesModule } from '../devices';
import { TelemetryFieldReader } from './persistence/telemetry-field.reader';
import { GetCurrentValuesHandler } from './get-current-values/get-current-values.handler';
import { ListMeasurementsHandler } from './list-measurements/list-measurements.handler';
import { TelemetryWriter } from './persistence/telemetry-writer';
import { TelemetryController } from './telemetry.controller';

/**
 * Telemetry reads and the write API (TelemetryWriter, TelemetryFieldReader) that flow
 * executions call. Devices are resolved by the devices module's DeviceReader, field definitions read through
 * the device-types module's FieldContractReader.
 */
@Module({
  imports: [PaginationModule, DevicesModule, DeviceTypesModule],
  controllers: [TelemetryController],
  providers: [TelemetryFieldReader, TelemetryWriter, GetCurrentValuesHandler, ListMeasurementsHandler],
  exports: [TelemetryWriter, TelemetryFieldReader],
})
export class TelemetryModule {}
