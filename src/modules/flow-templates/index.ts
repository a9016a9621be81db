/*
 * The flow templates module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { FlowTemplatesModule } from './flow-templates.module';
export { TemplateCatalogSeeder } from './seed-template-catalog/template-catalog-seeder';
export type { SeedSummary } from './seed-template-catalog/template-catalog-seeder';
