/*
 * The imports module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { ImportsModule } from './imports.module';
