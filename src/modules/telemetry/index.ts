/*
 * The telemetry module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { JSON_VALUE_SCHEMAS } from './dto/measurement-page.response.dto';
export { TelemetryModule } from './telemetry.module';
