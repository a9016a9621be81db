/**
 * The OpenAPI schemas of a stored or configured JSON value (any JSON value but null): telemetry values, parameter
 * values, fixture inputs and execution results all document their values with them.
 */
export const JSON_VALUE_SCHEMAS = [{ type: 'number' }, { type: 'string' }, { type: 'boolean' }, { type: 'object' }, { type: 'array', items: {} }];
