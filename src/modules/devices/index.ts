/*
 * The devices module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { DevicesModule } from './devices.module';
export { clip } from './domain/device-visibility';
export { DeviceBulkStore } from './persistence/device-bulk.store';
export type { DevEuiHolder, NewDevice } from './persistence/device-bulk.store';
export { DEV_EUI_PATTERN } from './dto/create-device.request.dto';
export { DeviceReader, resolveDeviceSql } from './persistence/device.reader';
export { recordDevicesLastSeen } from './persistence/device-last-seen';
