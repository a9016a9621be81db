import Ajv, { JSONSchemaType, ValidateFunction } from 'ajv';

/*
 * The legacy source's JSON shapes, checked with Ajv. Envelopes (login answer, list pages, tenants) that break their
 * schema make the whole answer invalid (`source_invalid_response`); a device type or device record that breaks its
 * "complete record" schema is only that record's `incomplete_source_record`.
 */

const ajv = new Ajv({ allErrors: false, strict: true });

/** A source id: a non-empty string or an integer (legacy systems use both). */
const SOURCE_ID = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] } as const;
/** A name the target accepts: 1..200 characters, not blank. */
const NAME = { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' } as const;

export interface LoginAnswer {
  accessToken: string;
}

export interface PageAnswer {
  items: Record<string, unknown>[];
  next: string | null;
}

export interface SourceTenantRecord {
  id: string | number;
  name: string;
}

const loginAnswer: JSONSchemaType<LoginAnswer> = {
  type: 'object',
  required: ['accessToken'],
  properties: { accessToken: { type: 'string', minLength: 1, maxLength: 8192 } },
};

const pageAnswer = {
  type: 'object',
  required: ['items', 'next'],
  properties: {
    items: { type: 'array', items: { type: 'object' } },
    next: { anyOf: [{ type: 'string', minLength: 1, maxLength: 2048 }, { type: 'null' }] },
  },
} as const;

const tenantRecord = {
  type: 'object',
  required: ['id', 'name'],
  properties: { id: SOURCE_ID, name: { type: 'string' } },
} as const;

const completeDeviceType = {
  type: 'object',
  required: ['id', 'code', 'name'],
  properties: { id: SOURCE_ID, code: { type: 'string', minLength: 1 }, name: NAME },
} as const;

const completeDevice = {
  type: 'object',
  required: ['id', 'devEui', 'name', 'deviceTypeId'],
  properties: { id: SOURCE_ID, devEui: { type: 'string', minLength: 1 }, name: NAME, deviceTypeId: SOURCE_ID },
} as const;

export const isLoginAnswer: ValidateFunction<LoginAnswer> = ajv.compile(loginAnswer);
export const isPageAnswer = ajv.compile(pageAnswer) as ValidateFunction<PageAnswer>;
export const isTenantRecord = ajv.compile(tenantRecord) as ValidateFunction<SourceTenantRecord>;
export const isCompleteDeviceType = ajv.compile(completeDeviceType) as ValidateFunction<{ id: string | number; code: string; name: string; description?: unknown }>;
export const isCompleteDevice = ajv.compile(completeDevice) as ValidateFunction<{
  id: string | number;
  devEui: string;
  name: string;
  deviceTypeId: string | number;
  metadata?: unknown;
}>;
