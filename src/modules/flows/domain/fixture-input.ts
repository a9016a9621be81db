import type { FieldViolation, ValidationRule } from '../../../shared/errors/error-codes';
import { instantOf } from '../../../shared/validation/time-window';
import { MAX_CONNECTION_DATA_BYTES, MAX_PAYLOAD_DATA_LENGTH, PAYLOAD_ENCODINGS, rawPayloadDecodes } from '../../../shared/validation/raw-payload';

export const INPUT_MODES = ['live', 'replay', 'preview', 'fixture'] as const;
export const MAX_ASSERTIONS = 50;
export const MAX_ASSERTION_PATH_LENGTH = 500;
export const MAX_FIXTURES_PER_FLOW = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The execution input envelope a fixture stores. */
export interface ExecutionInput {
  mode: (typeof INPUT_MODES)[number];
  rawPayload: { encoding: (typeof PAYLOAD_ENCODINGS)[number]; data: string };
  observedAt: string;
  rawReceivedAt: string;
  tenantId: string;
  deviceId: string;
  deviceTypeId: string;
  correlationId: string;
  connectionData: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

export interface FixtureBody {
  name?: string;
  input?: Record<string, unknown>;
  raw?: Record<string, unknown>;
  confirmRawRetentionExtension?: boolean;
  assertions?: { path: string; expected: unknown }[];
}

class Collector {
  readonly list: FieldViolation[] = [];
  add(path: string, rule: ValidationRule, message: string): void {
    this.list.push({ path, rule, message });
  }
}


/**
 * A complete input envelope: every field present, `mode` = `fixture` (`expectedMode`), a payload that decodes,
 * RFC 3339 times, UUID ids, `correlationId` 1..128, `connectionData` ≤ 16 KiB.
 */
export function inputViolations(input: unknown, base: string, expectedMode: (typeof INPUT_MODES)[number]): FieldViolation[] {
  const v = new Collector();
  if (!isObject(input)) {
    v.add(base, 'type', 'Must be an object.');
    return v.list;
  }
  const allowed = ['mode', 'rawPayload', 'observedAt', 'rawReceivedAt', 'tenantId', 'deviceId', 'deviceTypeId', 'correlationId', 'connectionData', 'parameters'];
  for (const key of Object.keys(input)) if (!allowed.includes(key)) v.add(`${base}.${key}`, 'unknown_property', `${key} is not a property of an input.`);
  for (const key of allowed) if (input[key] === undefined) v.add(`${base}.${key}`, 'required', 'Required.');
  if (input.mode !== undefined && input.mode !== expectedMode) {
    v.add(`${base}.mode`, 'enum', `Must be "${expectedMode}" here.`);
  }
  const payload = input.rawPayload;
  if (payload !== undefined) {
    if (!isObject(payload)) v.add(`${base}.rawPayload`, 'type', 'Must be an object with encoding and data.');
    else {
      for (const key of Object.keys(payload)) if (key !== 'encoding' && key !== 'data') v.add(`${base}.rawPayload.${key}`, 'unknown_property', `${key} is not a property of rawPayload.`);
      const encodingOk = (PAYLOAD_ENCODINGS as readonly unknown[]).includes(payload.encoding);
      if (payload.encoding === undefined) v.add(`${base}.rawPayload.encoding`, 'required', 'Required.');
      else if (!encodingOk) v.add(`${base}.rawPayload.encoding`, 'enum', `One of ${PAYLOAD_ENCODINGS.join(', ')}.`);
      if (payload.data === undefined) v.add(`${base}.rawPayload.data`, 'required', 'Required.');
      else if (typeof payload.data !== 'string') v.add(`${base}.rawPayload.data`, 'type', 'Must be a string.');
      else if (payload.data.length > MAX_PAYLOAD_DATA_LENGTH) v.add(`${base}.rawPayload.data`, 'max_length', `At most ${MAX_PAYLOAD_DATA_LENGTH} characters.`);
      else if (encodingOk && !rawPayloadDecodes(payload.encoding as string, payload.data)) v.add(`${base}.rawPayload.data`, 'format', `Not valid ${String(payload.encoding)}.`);
    }
  }
  for (const key of ['observedAt', 'rawReceivedAt']) {
    if (input[key] !== undefined && instantOf(input[key]) === null) v.add(`${base}.${key}`, 'format', 'Must be an RFC 3339 date-time.');
  }
  for (const key of ['tenantId', 'deviceId', 'deviceTypeId']) {
    if (input[key] !== undefined && (typeof input[key] !== 'string' || !UUID.test(input[key] as string))) v.add(`${base}.${key}`, 'format', 'Must be a UUID.');
  }
  const correlationId = input.correlationId;
  if (correlationId !== undefined) {
    if (typeof correlationId !== 'string') v.add(`${base}.correlationId`, 'type', 'Must be a string.');
    else if (correlationId.length < 1) v.add(`${base}.correlationId`, 'min_length', 'At least 1 character.');
    else if ([...correlationId].length > 128) v.add(`${base}.correlationId`, 'max_length', 'At most 128 characters.');
  }
  if (input.connectionData !== undefined) {
    if (!isObject(input.connectionData)) v.add(`${base}.connectionData`, 'type', 'Must be an object.');
    else if (Buffer.byteLength(JSON.stringify(input.connectionData), 'utf8') > MAX_CONNECTION_DATA_BYTES) v.add(`${base}.connectionData`, 'max_length', 'At most 16 KiB of JSON.');
  }
  if (input.parameters !== undefined && !isObject(input.parameters)) v.add(`${base}.parameters`, 'type', 'Must be an object of parameter values.');
  return v.list;
}

/** The fixture body rules that need no lookup: shape 1 (`input`) or shape 2 (`raw` + confirmation), assertions. */
export function fixtureBodyViolations(body: FixtureBody): FieldViolation[] {
  const v = new Collector();
  if (body.raw === undefined) {
    if (body.input === undefined) v.add('body.input', 'required', 'Send `input`, or `raw` with `confirmRawRetentionExtension: true`.');
  } else {
    if (body.confirmRawRetentionExtension === undefined) v.add('body.confirmRawRetentionExtension', 'required', 'Saving a fixture from a raw message needs the retention confirmation.');
    else if (body.confirmRawRetentionExtension !== true) v.add('body.confirmRawRetentionExtension', 'must_be_true', 'Confirm that the raw message is kept as long as the fixture.');
    const raw = body.raw;
    for (const key of Object.keys(raw)) if (key !== 'rawIngestionMessageId' && key !== 'receivedAt') v.add(`body.raw.${key}`, 'unknown_property', `${key} is not a property of raw.`);
    if (raw.rawIngestionMessageId === undefined) v.add('body.raw.rawIngestionMessageId', 'required', 'Required.');
    else if (typeof raw.rawIngestionMessageId !== 'string' || !UUID.test(raw.rawIngestionMessageId)) v.add('body.raw.rawIngestionMessageId', 'format', 'Must be a UUID.');
    if (raw.receivedAt === undefined) v.add('body.raw.receivedAt', 'required', 'Required.');
    else if (instantOf(raw.receivedAt) === null) v.add('body.raw.receivedAt', 'format', 'Must be an RFC 3339 date-time.');
  }
  if (body.input !== undefined) v.list.push(...inputViolations(body.input, 'body.input', 'fixture'));
  const assertions = body.assertions ?? [];
  if (assertions.length > MAX_ASSERTIONS) v.add('body.assertions', 'max_items', `At most ${MAX_ASSERTIONS} assertions.`);
  else {
    assertions.forEach((assertion, index) => {
      const path = `body.assertions[${index}]`;
      if (!isObject(assertion)) return v.add(path, 'type', 'An assertion is an object with path and expected.');
      for (const key of Object.keys(assertion)) if (key !== 'path' && key !== 'expected') v.add(`${path}.${key}`, 'unknown_property', `${key} is not a property of an assertion.`);
      if (assertion.path === undefined) v.add(`${path}.path`, 'required', 'Required.');
      else if (typeof assertion.path !== 'string') v.add(`${path}.path`, 'type', 'Must be a string.');
      else if (assertion.path.length < 1) v.add(`${path}.path`, 'min_length', 'At least 1 character.');
      else if ([...assertion.path].length > MAX_ASSERTION_PATH_LENGTH) v.add(`${path}.path`, 'max_length', `At most ${MAX_ASSERTION_PATH_LENGTH} characters.`);
      if (!('expected' in assertion)) v.add(`${path}.expected`, 'required', 'Required (null is a value).');
    });
  }
  return v.list;
}

/** The input's tenant and device type must be the flow's. */
export function inputMismatchViolations(input: Record<string, unknown>, tenantId: string, deviceTypeId: string, base = 'body.input'): FieldViolation[] {
  const out: FieldViolation[] = [];
  if (String(input.tenantId).toLowerCase() !== tenantId) out.push({ path: `${base}.tenantId`, rule: 'mismatch', message: "Must be the flow's tenant." });
  if (String(input.deviceTypeId).toLowerCase() !== deviceTypeId) out.push({ path: `${base}.deviceTypeId`, rule: 'mismatch', message: "Must be the flow's device type." });
  return out;
}
