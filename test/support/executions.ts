import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app';

/*
 * Direct-to-database seeding of stored uplinks (already routed) and execution records, for the executions and
 * replays suites: lists, filters and replays need rows with chosen times, which the live pipeline does not give.
 */

export interface SeededRawMessage {
  rawIngestionMessageId: string;
  receivedAt: Date;
  observedAt: Date;
}

export interface RawMessageSeed {
  tenantId: string;
  deviceId: string;
  devEui: string;
  observedAt: Date;
  /** Default: 200 ms after observedAt; with `carriesObservedAt: false`, observedAt itself. */
  receivedAt?: Date;
  /** False: the uplink had no time of its own (observed_at NULL; its observedAt is the receipt time). */
  carriesObservedAt?: boolean;
  /** Default: hex of `value`. */
  rawPayload?: { encoding: string; data: string };
  /** A big-endian uint16, stored as hex (the test flows decode it). */
  value?: number;
  connectionData?: Record<string, unknown>;
  correlationId?: string;
  processingStatus?: 'processed' | 'skipped';
}

const hexOf = (value: number) => Buffer.from([(value >> 8) & 0xff, value & 0xff]).toString('hex').toUpperCase();

/** A routed raw message (processed by default), as the pipeline leaves it. */
export async function seedRawMessage(t: TestApp, seed: RawMessageSeed): Promise<SeededRawMessage> {
  const id = randomUUID();
  const carries = seed.carriesObservedAt ?? true;
  const receivedAt = seed.receivedAt ?? new Date(seed.observedAt.getTime() + (carries ? 200 : 0));
  const rawPayload = seed.rawPayload ?? { encoding: 'hex', data: hexOf(seed.value ?? 0) };
  const status = seed.processingStatus ?? 'processed';
  await t.dataSource.query(
    `INSERT INTO raw_ingestion_messages (raw_ingestion_message_id, received_at, source, event, tenant_id, dev_eui, observed_at, raw_payload,
            connection_data, correlation_id, content_type, body, size_bytes, processing_status, processing_reason, device_id)
     VALUES ($1, $2, 'http', 'uplink', $3, $4, $5, $6, $7, $8, 'application/json', convert_to($9, 'UTF8'), octet_length(convert_to($9, 'UTF8')), $10::varchar,
             CASE WHEN $10::varchar = 'skipped' THEN 'no_active_flow_version' END, $11)`,
    [
      id,
      receivedAt,
      seed.tenantId,
      seed.devEui,
      carries ? seed.observedAt : null,
      rawPayload,
      seed.connectionData ?? { fPort: 2 },
      seed.correlationId ?? `corr-${id.slice(0, 8)}`,
      JSON.stringify({ devEui: seed.devEui, payload: rawPayload }),
      status,
      seed.deviceId,
    ],
  );
  return { rawIngestionMessageId: id, receivedAt: new Date(receivedAt.getTime()), observedAt: carries ? seed.observedAt : receivedAt };
}

export interface ExecutionSeed {
  tenantId: string;
  flowId: string;
  flowVersionId: string;
  versionNumber: number;
  deviceId: string;
  startedAt: Date;
  mode?: 'live' | 'replay';
  replayId?: string | null;
  raw?: SeededRawMessage;
  correlationId?: string;
  status?: 'succeeded' | 'failed' | 'filtered';
  parameters?: Record<string, unknown>;
  current?: Record<string, unknown>;
  timeseries?: Record<string, unknown>;
  trace?: unknown[];
  error?: Record<string, unknown> | null;
}

/** An execution record as the pipeline writes it (compact trace). */
export async function seedExecution(t: TestApp, seed: ExecutionSeed): Promise<string> {
  const id = randomUUID();
  const status = seed.status ?? 'succeeded';
  const error = seed.error !== undefined ? seed.error : status === 'failed' ? { nodeId: 'decode', code: 'decode_error', message: 'The payload is too short.' } : null;
  const observedAt = seed.raw?.observedAt ?? new Date(seed.startedAt.getTime() - 1000);
  await t.dataSource.query(
    `INSERT INTO flow_executions (flow_execution_id, tenant_id, flow_id, flow_version_id, version_number, device_id, mode, replay_id,
            raw_ingestion_message_id, raw_received_at, observed_at, correlation_id, status, started_at, duration_ms, error, parameters,
            current, timeseries, actions, trace)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 0.5, $15, $16, $17, $18, '[]', $19)`,
    [
      id,
      seed.tenantId,
      seed.flowId,
      seed.flowVersionId,
      seed.versionNumber,
      seed.deviceId,
      seed.mode ?? 'live',
      seed.replayId ?? null,
      seed.raw?.rawIngestionMessageId ?? null,
      seed.raw?.receivedAt ?? new Date(observedAt.getTime() + 200),
      observedAt,
      seed.correlationId ?? `corr-${id.slice(0, 8)}`,
      status,
      seed.startedAt,
      error === null ? null : JSON.stringify(error),
      JSON.stringify(seed.parameters ?? {}),
      JSON.stringify(seed.current ?? {}),
      JSON.stringify(seed.timeseries ?? {}),
      JSON.stringify(seed.trace ?? [{ n: 'decode', s: status === 'failed' ? 'failed' : 'succeeded', t: 0, d: 0.1 }]),
    ],
  );
  return id;
}

/** A finished replay row of the flow (executions of mode `replay` need one). */
export async function seedReplay(t: TestApp, seed: { tenantId: string; flowId: string; flowVersionId: string; status?: string }): Promise<string> {
  const [row] = await t.dataSource.query<{ replay_id: string }[]>(
    `INSERT INTO flow_replays (tenant_id, flow_id, flow_version_id, range_from, range_to, dry_run, status, started_at, finished_at)
     VALUES ($1, $2, $3, '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', false, $4::varchar, clock_timestamp(),
             CASE WHEN $4::varchar IN ('succeeded', 'cancelled') THEN clock_timestamp() END)
     RETURNING replay_id`,
    [seed.tenantId, seed.flowId, seed.flowVersionId, seed.status ?? 'succeeded'],
  );
  return row!.replay_id;
}

/** `count` routed uplinks of `device` in one statement: the i-th (from 1) observed `i * stepSeconds` after `start`, carrying value i. */
export async function seedUplinkSeries(
  t: TestApp,
  tenantId: string,
  device: { deviceId: string; devEui: string },
  count: number,
  start: string,
  stepSeconds: number,
): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO raw_ingestion_messages (raw_ingestion_message_id, received_at, source, event, tenant_id, dev_eui, observed_at, raw_payload,
            connection_data, correlation_id, content_type, body, size_bytes, processing_status, device_id)
     SELECT gen_random_uuid(), at + interval '100 milliseconds', 'http', 'uplink', $1, $2, at,
            jsonb_build_object('encoding', 'hex', 'data', lpad(to_hex(i), 4, '0')), '{}', 'series-' || i, 'application/json', '\\x7b7d', 2,
            'processed', $3
       FROM generate_series(1, $4) AS i, LATERAL (SELECT $5::timestamptz + i * make_interval(secs => $6) AS at) x`,
    [tenantId, device.devEui, device.deviceId, count, start, stepSeconds],
  );
}
