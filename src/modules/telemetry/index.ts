/*
 * The telemetry module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { TelemetryModule } from './telemetry.module';
export { TelemetryWriteRefusedError, TelemetryWriter } from './persistence/telemetry-writer';
export type { TelemetryRow } from './persistence/telemetry-writer';
