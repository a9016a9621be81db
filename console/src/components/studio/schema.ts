/**
 * A small JSON Schema (draft 2020-12) checker for node configurations in the editor: the keywords block schemas
 * use (type, enum, const, required, properties, additionalProperties, items, min/max, lengths, pattern, format
 * uuid, allOf/anyOf/oneOf/not, if/then/else). `{"$param": key}` stands for any value, as on the server, which
 * checks the parameter's type itself. The server's validate report stays the authority. Not ajv: ajv compiles
 * each schema with `new Function`, which the service's Content-Security-Policy (`script-src 'self'`) forbids.
 */
export type Schema = Record<string, unknown>;

export const isParamRef = (value: unknown): value is { $param: string } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 1 && typeof (value as { $param?: unknown }).$param === 'string';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function typeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return true;
  }
}

const where = (path: string) => path || 'configuration';

export function checkSchema(schema: unknown, value: unknown, path = ''): string[] {
  if (schema === true || schema === undefined || schema === null) return [];
  if (schema === false) return [`${where(path)}: not allowed`];
  if (typeof schema !== 'object' || isParamRef(value)) return [];
  const s = schema as Schema;
  const problems: string[] = [];
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!types.some((type) => typeMatches(type, value))) return [`${where(path)}: must be ${types.join(' or ')}`];
  }
  if (Array.isArray(s.enum) && !s.enum.some((option) => JSON.stringify(option) === JSON.stringify(value))) problems.push(`${where(path)}: must be one of ${s.enum.map((option) => JSON.stringify(option)).join(', ')}`);
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) problems.push(`${where(path)}: must be ${JSON.stringify(s.const)}`);
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) problems.push(`${where(path)}: must be at least ${s.minimum}`);
    if (typeof s.maximum === 'number' && value > s.maximum) problems.push(`${where(path)}: must be at most ${s.maximum}`);
  }
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) problems.push(`${where(path)}: at least ${s.minLength} characters`);
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) problems.push(`${where(path)}: at most ${s.maxLength} characters`);
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) problems.push(`${where(path)}: must match ${s.pattern}`);
    if (s.format === 'uuid' && !UUID.test(value)) problems.push(`${where(path)}: must be a UUID`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) problems.push(`${where(path)}: at least ${s.minItems} item(s)`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) problems.push(`${where(path)}: at most ${s.maxItems} item(s)`);
    if (s.items !== undefined) value.forEach((item, index) => problems.push(...checkSchema(s.items, item, `${path}[${index}]`)));
  }
  if (typeMatches('object', value)) {
    const object = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, unknown>;
    for (const key of Array.isArray(s.required) ? (s.required as string[]) : []) if (!(key in object)) problems.push(`${path ? `${path}.` : ''}${key}: required`);
    for (const [key, item] of Object.entries(object)) {
      const at = path ? `${path}.${key}` : key;
      if (key in properties) problems.push(...checkSchema(properties[key], item, at));
      else if (s.additionalProperties === false) problems.push(`${at}: not allowed`);
      else if (typeof s.additionalProperties === 'object') problems.push(...checkSchema(s.additionalProperties, item, at));
    }
  }
  if (Array.isArray(s.allOf)) for (const part of s.allOf) problems.push(...checkSchema(part, value, path));
  if (Array.isArray(s.anyOf) && !s.anyOf.some((part) => checkSchema(part, value, path).length === 0)) problems.push(`${where(path)}: matches none of the allowed shapes`);
  if (Array.isArray(s.oneOf) && s.oneOf.filter((part) => checkSchema(part, value, path).length === 0).length !== 1) problems.push(`${where(path)}: must match exactly one allowed shape`);
  if (s.not !== undefined && checkSchema(s.not, value, path).length === 0) problems.push(`${where(path)}: matches a shape that is not allowed`);
  if (s.if !== undefined) {
    const branch = checkSchema(s.if, value, path).length === 0 ? s.then : s.else;
    if (branch !== undefined) problems.push(...checkSchema(branch, value, path));
  }
  return problems;
}

/** A starting configuration: each required property's default (or an empty value of its type, one item for arrays). */
export function defaultsOf(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as Schema;
  if ('default' in s) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (Array.isArray(s.type) ? s.type[0] : s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      for (const key of Array.isArray(s.required) ? (s.required as string[]) : []) {
        const value = defaultsOf(properties[key]);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array':
      return typeof s.minItems === 'number' && s.minItems > 0 ? [defaultsOf(s.items) ?? {}] : [];
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof s.minimum === 'number' ? s.minimum : 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

/** Whether the generated form can show this schema; anything else is edited as JSON. */
export function formable(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as Schema;
  if (s.type !== 'object' || typeof s.properties !== 'object') return false;
  if (s.oneOf !== undefined || s.anyOf !== undefined || s.$ref !== undefined || s.patternProperties !== undefined) return false;
  return Object.values(s.properties as Record<string, Schema>).every((property) => fieldKind(property) !== 'unsupported');
}

export type FieldKind = 'enum' | 'string' | 'number' | 'integer' | 'boolean' | 'object-list' | 'any' | 'unsupported';

export function fieldKind(schema: Schema | undefined): FieldKind {
  if (schema === undefined) return 'any';
  if (Array.isArray(schema.enum)) return 'enum';
  if (schema.oneOf !== undefined || schema.anyOf !== undefined || schema.$ref !== undefined) return 'unsupported';
  switch (schema.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return schema.type;
    case 'array': {
      const items = schema.items as Schema | undefined;
      return items?.type === 'object' && typeof items.properties === 'object' ? 'object-list' : 'any';
    }
    case undefined:
      return 'any';
    default:
      return 'any';
  }
}
