/*
 * The telemetry module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { TelemetryModule } from './telemetry.module';
