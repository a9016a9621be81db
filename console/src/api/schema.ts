// The API's types, generated from the service's OpenAPI document at build time (scripts/generate-api-types.mjs),
// outside src/ so that a build never looks like a source change.
export type { components, paths } from '../../.generated/schema';
