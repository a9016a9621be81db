import type { FieldViolation } from '../../../shared/errors/error-codes';
import { MAX_CONNECTION_DATA_BYTES, MAX_PAYLOAD_DATA_LENGTH, PAYLOAD_ENCODINGS } from '../../flows';
import { BASE64_PATTERN, rawPayloadDecodes } from '../../../shared/validation/raw-payload';

/** What a network server's uplink maps to, before it is stored. */
export interface MappedUplink {
  devEui: string;
  observedAt: Date | null;
  rawPayload: { encoding: string; data: string };
  connectionData: Record<string, unknown>;
  /** Without the scope; null when the message carries nothing to recognise a repeat by. */
  dedupKey: string | null;
}

export type MapResult = { kind: 'uplink'; uplink: MappedUplink } | { kind: 'ignored' } | { kind: 'malformed'; violations: FieldViolation[] };

const DEV_EUI = /^[0-9A-Fa-f]{16}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
/** What older The Things Stack releases send for "no time" (Go's zero time). */
const ZERO_TIME = /^0001-01-01T00:00:00(?:\.0+)?(?:Z|[+-]00:00)$/i;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const malformed = (path: string, rule: FieldViolation['rule'], message: string): MapResult => ({
  kind: 'malformed',
  violations: [{ path, rule, message }],
});

/**
 * An RFC 3339 instant as a Date (nanoseconds cut to milliseconds, the stored precision); null for absent or the
 * zero time; undefined when it is not a valid instant.
 */
export function instant(value: unknown): Date | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !RFC3339.test(value)) return undefined;
  if (ZERO_TIME.test(value)) return null;
  // Date parses at most milliseconds; cut longer fractions first so nanosecond times are not rejected.
  const cut = value.replace(/(\.\d{3})\d+/, '$1');
  const date = new Date(cut);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * ChirpStack v4 HTTP integration, `event=up`: camelCase keys, lowercase EUIs, zero values omitted (`fCnt`,
 * `adr`, `confirmed`, `dr` absent mean 0/false), `time` with nanoseconds. `time` (the network server's receive
 * time) becomes observedAt; without it, the receipt time does.
 */
export function mapChirpStackUp(body: unknown): MapResult {
  if (!isObject(body)) return malformed('body', 'type', 'A ChirpStack event is a JSON object.');
  const deviceInfo = body.deviceInfo;
  const devEui = isObject(deviceInfo) ? deviceInfo.devEui : undefined;
  if (typeof devEui !== 'string' || !DEV_EUI.test(devEui)) {
    return malformed('body.deviceInfo.devEui', devEui === undefined ? 'required' : 'format', 'deviceInfo.devEui must be 16 hexadecimal digits.');
  }
  const data = body.data ?? '';
  if (typeof data !== 'string' || !BASE64_PATTERN.test(data)) return malformed('body.data', 'format', '`data` must be base64.');
  const observedAt = instant(body.time);
  if (observedAt === undefined) return malformed('body.time', 'format', '`time` must be an RFC 3339 timestamp.');
  const deduplicationId = typeof body.deduplicationId === 'string' && body.deduplicationId !== '' ? body.deduplicationId : null;
  const connectionData: Record<string, unknown> = {
    networkServer: 'chirpstack',
    deduplicationId,
    devAddr: body.devAddr ?? null,
    fPort: body.fPort ?? 0,
    fCnt: body.fCnt ?? 0,
    dr: body.dr ?? 0,
    adr: body.adr ?? false,
    confirmed: body.confirmed ?? false,
    rxInfo: body.rxInfo ?? [],
    txInfo: body.txInfo ?? {},
  };
  if (body.object !== undefined) connectionData.object = body.object;
  return {
    kind: 'uplink',
    uplink: {
      devEui: devEui.toUpperCase(),
      observedAt,
      rawPayload: { encoding: 'base64', data },
      connectionData,
      // Cut to the key column's 300 characters (real ids are UUIDs): a longer one must not make the row unstorable.
      dedupKey: deduplicationId === null ? null : `chirpstack:${deduplicationId}`.slice(0, 300),
    },
  };
}

/**
 * The Things Stack v3 webhook: only `uplink_message` messages are uplinks (joins, acks, location... are
 * ignored). snake_case keys, uppercase EUIs, zero fields omitted (`f_cnt` absent is 0; `f_port` absent stays
 * null), frequencies and durations as strings, kept as sent. observedAt is `uplink_message.received_at` (when
 * the network server received it), else the top-level `received_at` (when the application server handled it),
 * else the receipt time; Go's zero time `0001-01-01T00:00:00Z` counts as absent. Gateway times in
 * `rx_metadata` stay in connectionData only (gateways without GPS have unreliable clocks).
 */
export function mapTtsMessage(body: unknown): MapResult {
  if (!isObject(body)) return malformed('body', 'type', 'A The Things Stack message is a JSON object.');
  const uplink = body.uplink_message;
  if (uplink === undefined) return { kind: 'ignored' };
  if (!isObject(uplink)) return malformed('body.uplink_message', 'type', '`uplink_message` must be an object.');
  const ids = body.end_device_ids;
  const devEui = isObject(ids) ? ids.dev_eui : undefined;
  if (typeof devEui !== 'string' || !DEV_EUI.test(devEui)) {
    return malformed('body.end_device_ids.dev_eui', devEui === undefined ? 'required' : 'format', 'end_device_ids.dev_eui must be 16 hexadecimal digits.');
  }
  const frm = uplink.frm_payload ?? '';
  if (typeof frm !== 'string' || !BASE64_PATTERN.test(frm)) return malformed('body.uplink_message.frm_payload', 'format', '`frm_payload` must be base64.');
  const nsReceived = instant(uplink.received_at);
  if (nsReceived === undefined) return malformed('body.uplink_message.received_at', 'format', 'Must be an RFC 3339 timestamp.');
  const asReceived = instant(body.received_at);
  if (asReceived === undefined) return malformed('body.received_at', 'format', 'Must be an RFC 3339 timestamp.');
  const fCnt = typeof uplink.f_cnt === 'number' ? uplink.f_cnt : 0;
  const applicationIds = isObject(ids) && isObject(ids.application_ids) ? ids.application_ids : {};
  const connectionData: Record<string, unknown> = {
    networkServer: 'tts',
    applicationId: applicationIds.application_id ?? null,
    deviceId: (isObject(ids) ? ids.device_id : null) ?? null,
    devAddr: (isObject(ids) ? ids.dev_addr : null) ?? null,
    fPort: uplink.f_port ?? null,
    fCnt,
    rxMetadata: uplink.rx_metadata ?? [],
    settings: uplink.settings ?? {},
  };
  if (uplink.decoded_payload !== undefined) connectionData.decodedPayload = uplink.decoded_payload;
  return {
    kind: 'uplink',
    uplink: {
      devEui: devEui.toUpperCase(),
      observedAt: nsReceived ?? asReceived,
      rawPayload: { encoding: 'base64', data: frm },
      connectionData,
      dedupKey: ttsDedupKey(body, uplink, devEui.toUpperCase(), fCnt, nsReceived ?? asReceived),
    },
  };
}

/** The application server's `as:up:` correlation id; else devEui + f_cnt + the receive time; else none. */
function ttsDedupKey(body: Record<string, unknown>, uplink: Record<string, unknown>, devEui: string, fCnt: number, received: Date | null): string | null {
  for (const list of [body.correlation_ids, uplink.correlation_ids]) {
    if (!Array.isArray(list)) continue;
    const id = list.find((value): value is string => typeof value === 'string' && value.startsWith('as:up:') && value.length > 6);
    if (id) return `tts:${id}`.slice(0, 300);
  }
  return received ? `tts:${devEui}:${fCnt}:${received.toISOString()}` : null;
}

const HTTP_PROPERTIES = new Set(['devEui', 'payload', 'observedAt', 'connectionData', 'messageId']);

/** Uplink's own body: `devEui`, `payload` {encoding, data}, optional `observedAt`, `connectionData`, `messageId`. */
export function mapHttpUplink(body: unknown): MapResult {
  if (!isObject(body)) return malformed('body', 'type', 'The body is a JSON object.');
  const violations: FieldViolation[] = [];
  const add = (path: string, rule: FieldViolation['rule'], message: string) => violations.push({ path, rule, message });
  for (const key of Object.keys(body)) if (!HTTP_PROPERTIES.has(key)) add(`body.${key}`, 'unknown_property', `${key} is not a property of the body.`);
  const { devEui, payload, observedAt, connectionData, messageId } = body;
  if (devEui === undefined) add('body.devEui', 'required', 'Required.');
  else if (typeof devEui !== 'string' || !DEV_EUI.test(devEui)) add('body.devEui', 'format', 'devEui is 16 hexadecimal digits.');
  let rawPayload: { encoding: string; data: string } | null = null;
  if (payload === undefined) add('body.payload', 'required', 'Required.');
  else if (!isObject(payload)) add('body.payload', 'type', 'Must be an object with encoding and data.');
  else {
    for (const key of Object.keys(payload)) if (key !== 'encoding' && key !== 'data') add(`body.payload.${key}`, 'unknown_property', `${key} is not a property of payload.`);
    const { encoding, data } = payload;
    const known = (PAYLOAD_ENCODINGS as readonly unknown[]).includes(encoding);
    if (encoding === undefined) add('body.payload.encoding', 'required', 'Required.');
    else if (!known) add('body.payload.encoding', 'enum', `One of ${PAYLOAD_ENCODINGS.join(', ')}.`);
    if (data === undefined) add('body.payload.data', 'required', 'Required.');
    else if (typeof data !== 'string') add('body.payload.data', 'type', 'Must be a string.');
    else if (data.length > MAX_PAYLOAD_DATA_LENGTH) add('body.payload.data', 'max_length', `At most ${MAX_PAYLOAD_DATA_LENGTH} characters.`);
    else if (known && !rawPayloadDecodes(encoding as string, data)) add('body.payload.data', 'format', `Not valid ${String(encoding)}.`);
    if (known && typeof data === 'string') rawPayload = { encoding: encoding as string, data };
  }
  const observed = instant(observedAt);
  if (observedAt !== undefined && (observed === undefined || observed === null)) add('body.observedAt', 'format', 'An RFC 3339 timestamp.');
  if (connectionData !== undefined) {
    if (!isObject(connectionData)) add('body.connectionData', 'type', 'Must be an object.');
    else if (Buffer.byteLength(JSON.stringify(connectionData)) > MAX_CONNECTION_DATA_BYTES) {
      add('body.connectionData', 'max_length', `At most ${MAX_CONNECTION_DATA_BYTES} bytes as JSON.`);
    }
  }
  if (messageId !== undefined) {
    if (typeof messageId !== 'string') add('body.messageId', 'type', 'Must be a string.');
    else if (messageId.length < 1 || [...messageId].length > 128) add('body.messageId', messageId.length < 1 ? 'min_length' : 'max_length', '1..128 characters.');
  }
  if (violations.length > 0 || rawPayload === null) return { kind: 'malformed', violations };
  return {
    kind: 'uplink',
    uplink: {
      devEui: (devEui as string).toUpperCase(),
      observedAt: observed ?? null,
      rawPayload,
      connectionData: (connectionData as Record<string, unknown> | undefined) ?? {},
      dedupKey: typeof messageId === 'string' ? `http:${messageId}` : null,
    },
  };
}

