import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { DeviceTypesModule } from '../device-types';
import { DevicesModule } from '../devices';
import { BaseUrlPolicy } from './domain/base-url-policy';
import { ImportLegacySnapshotHandler } from './import-legacy-snapshot/import-legacy-snapshot.handler';
import { LegacySnapshotImportsController } from './legacy-snapshot-imports.controller';
import { ImportLock } from './persistence/import-lock';
import { LegacySourceClient } from './source/legacy-source.client';

/** The temporary, create-only import of device types and devices from a legacy system's snapshot. */
@Module({
  imports: [DeviceTypesModule, DevicesModule],
  controllers: [LegacySnapshotImportsController],
  providers: [
    {
      provide: BaseUrlPolicy,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new BaseUrlPolicy(config.legacyImportBaseUrlPattern, config.legacyImportAllowHttpLoopback),
    },
    { provide: LegacySourceClient, inject: [BaseUrlPolicy], useFactory: (policy: BaseUrlPolicy) => new LegacySourceClient(policy) },
    ImportLock,
    ImportLegacySnapshotHandler,
  ],
})
export class ImportsModule {}
