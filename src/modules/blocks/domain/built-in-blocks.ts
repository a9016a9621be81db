/**
 * The built-in blocks of the `flow-graph.v2` format, as data: the one definition the block catalog shows and the
 * flow validator checks configurations against. Configuration schemas are JSON Schema (draft 2020-12). Any
 * configuration value may instead be `{ "$param": "<key>" }`; the validator resolves those against the version's
 * parameter declarations before it applies these schemas.
 */
export type BuiltInBlockKey = 'decode-binary' | 'map-field' | 'scale' | 'filter' | 'email-action';

export interface BuiltInBlockDefinition {
  key: BuiltInBlockKey;
  version: 1;
  name: string;
  description: string;
  /** Output ports; an empty list means the block ends a path (like the output nodes). */
  ports: readonly string[];
  configurationSchema: Readonly<Record<string, unknown>>;
}

const FIELD_KEY = { type: 'string', pattern: '^[a-z][a-z0-9._-]{0,119}$' } as const;

export const DECODE_BINARY_TYPES = [
  'uint8',
  'int8',
  'uint16be',
  'uint16le',
  'int16be',
  'int16le',
  'uint32be',
  'uint32le',
  'int32be',
  'int32le',
  'float32be',
  'float32le',
] as const;

export const FILTER_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists', 'in'] as const;

export const BUILT_IN_BLOCKS: readonly BuiltInBlockDefinition[] = [
  {
    key: 'decode-binary',
    version: 1,
    name: 'Decode binary',
    description: 'Reads numbers at fixed byte offsets of the payload into values.',
    ports: ['out'],
    configurationSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['reads'],
      properties: {
        reads: {
          type: 'array',
          minItems: 1,
          maxItems: 50,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['offset', 'type', 'fieldKey'],
            properties: {
              offset: { type: 'integer', minimum: 0, maximum: 255 },
              type: { enum: [...DECODE_BINARY_TYPES] },
              fieldKey: FIELD_KEY,
            },
          },
        },
      },
    },
  },
  {
    key: 'map-field',
    version: 1,
    name: 'Map field',
    description: 'Copies values found at paths of the message (payload.a[0].b, input.connectionData.rssi, values.x) into fields; a missing path leaves the field unset.',
    ports: ['out'],
    configurationSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['mappings'],
      properties: {
        mappings: {
          type: 'array',
          minItems: 1,
          maxItems: 200,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['source', 'fieldKey'],
            properties: {
              source: { type: 'string', minLength: 1, maxLength: 500, pattern: '^(payload|input|values)([.\\[].*)?$' },
              fieldKey: FIELD_KEY,
            },
          },
        },
      },
    },
  },
  {
    key: 'scale',
    version: 1,
    name: 'Scale',
    description: 'value * multiply + add, optionally rounded to `decimals`; an absent value passes unchanged, a non-number fails with type_mismatch.',
    ports: ['out'],
    configurationSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['fieldKey'],
      properties: {
        fieldKey: FIELD_KEY,
        multiply: { type: 'number', default: 1 },
        add: { type: 'number', default: 0 },
        decimals: { type: 'integer', minimum: 0, maximum: 10 },
      },
    },
  },
  {
    key: 'filter',
    version: 1,
    name: 'Filter',
    description: 'Sends the message on `pass` when the value at `path` satisfies the condition, else on `reject`.',
    ports: ['pass', 'reject'],
    configurationSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['path', 'operator'],
      properties: {
        path: { type: 'string', minLength: 1, maxLength: 500, pattern: '^(payload|input|values)([.\\[].*)?$' },
        operator: { enum: [...FILTER_OPERATORS] },
        value: {},
      },
      allOf: [
        {
          if: { properties: { operator: { enum: ['exists', 'not_exists'] } } },
          then: { not: { required: ['value'] } },
          else: { required: ['value'] },
        },
        {
          if: { properties: { operator: { const: 'in' } } },
          then: { properties: { value: { type: 'array', maxItems: 200 } } },
        },
      ],
    },
  },
  {
    key: 'email-action',
    version: 1,
    name: 'E-mail action',
    description:
      'Requests an e-mail from the tenant template `emailTemplateId` (sent only by live executions, after commit); ' +
      'with `cooldownSeconds`, a request within that many seconds of an e-mail of the same flow, node and device is suppressed (`cooldown`).',
    ports: [],
    configurationSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['emailTemplateId'],
      properties: {
        emailTemplateId: { type: 'string', format: 'uuid' },
        cooldownSeconds: { type: 'integer', minimum: 0, maximum: 604800, default: 0 },
      },
    },
  },
];

/** The built-in block with this key and version, or undefined. */
export function builtInBlock(key: string, version: number): BuiltInBlockDefinition | undefined {
  return BUILT_IN_BLOCKS.find((block) => block.key === key && block.version === version);
}
