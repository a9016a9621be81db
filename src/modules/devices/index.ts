/*
 * The devices module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { DevicesModule } from './devices.module';
export { clip } from './domain/device-visibility';
export { DeviceReader, resolveDeviceSql } from './persistence/device.reader';
export { recordDevicesLastSeen } from './persistence/device-last-seen';
