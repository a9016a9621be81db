import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DependencyFailureError } from '../../../shared/errors/domain-error';
import type { IngestSource } from '../domain/raw-ingestion-message.entity';

/** Everything stored for one request; `id` and `receivedAt` are assigned by the writer. */
export interface RawMessageInput {
  source: IngestSource;
  event: string;
  credentialId: string | null;
  tenantId: string | null;
  /** The credential's tenant (`tenant:<uuid>`) or `platform`: a key repeats only within its scope. */
  dedupScope: string;
  dedupKey: string | null;
  devEui: string | null;
  observedAt: Date | null;
  rawPayload: { encoding: string; data: string } | null;
  connectionData: Record<string, unknown> | null;
  /** The ingest request's correlation id, handed on to the executions the message causes. */
  correlationId: string | null;
  contentType: string;
  body: Buffer;
  receivedAt: Date;
  /** `pending` for the pipeline, or `rejected` (`malformed_payload`) when the body could not be mapped. */
  status: 'pending' | 'rejected';
}

export interface StoredAck {
  rawIngestionMessageId: string;
  receivedAt: string;
  duplicate: boolean;
}

interface Waiting {
  input: RawMessageInput;
  id: string;
  resolve: (ack: StoredAck) => void;
  reject: (error: unknown) => void;
}

/** Rows per INSERT: 18 parameters each, well under PostgreSQL's 65535. */
export const MAX_BATCH = 500;
export const DEDUP_WINDOW_HOURS = 24;
/** The advisory lock class of per-devEui receipt locks (the second key is the devEui's hash). */
export const RECEIPT_LOCK_CLASS = 1969;
const COLUMNS = 18;

/**
 * Group commit of raw messages. A request is answered only once its row is committed, but requests do not each
 * pay a transaction: whatever arrives while a commit is in flight waits for the next batch, which is one
 * multi-row INSERT and one commit. When a batch fails, its rows are retried one transaction each, so a row the
 * database refuses fails only its own request (503 database); while the database is down, every request fails.
 *
 * Dedup is decided by PostgreSQL, not by a read-then-write: one `INSERT ... ON CONFLICT` on the dedup table
 * claims each key for 24 h (an expired claim is taken over in the same statement); a key claimed by another
 * transaction makes this one wait for it, then see it. Repeats inside one batch share the first one's outcome.
 */
@Injectable()
export class RawMessageWriter {
  private readonly logger = new Logger('Ingestion');
  private queue: Waiting[] = [];
  private flushing = false;
  private readonly storedListeners = new Set<() => void>();

  constructor(private readonly dataSource: DataSource) {}

  /** Calls `listener` after each committed batch (the processing workers wake up instead of waiting for their poll). */
  onStored(listener: () => void): () => void {
    this.storedListeners.add(listener);
    return () => this.storedListeners.delete(listener);
  }

  store(input: RawMessageInput): Promise<StoredAck> {
    return new Promise<StoredAck>((resolve, reject) => {
      this.queue.push({ input, id: randomUUID(), resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          await this.commit(batch);
        } catch (error) {
          if (batch.length === 1) {
            this.fail(batch, error);
            continue;
          }
          // One row the database refuses must not fail its neighbours: retry each on its own.
          this.logger.warn(`raw message batch of ${batch.length} failed (${(error as Error).message}); retrying one by one`);
          for (const waiting of batch) {
            await this.commit([waiting]).catch((single: unknown) => this.fail([waiting], single));
          }
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async commit(batch: Waiting[]): Promise<void> {
    const acks = await this.dataSource.transaction((manager) => this.write(manager, batch));
    batch.forEach((waiting, index) => waiting.resolve(acks[index]!));
    for (const listener of this.storedListeners) listener();
  }

  private fail(batch: Waiting[], error: unknown): void {
    this.logger.error(`raw message not stored: ${(error as Error).message}`);
    const failure = new DependencyFailureError('database', 'unavailable', 'The message could not be stored. Retry later.');
    for (const waiting of batch) waiting.reject(failure);
  }

  /** The batch's rows, in one transaction; the answer for each request, in batch order. */
  private async write(manager: EntityManager, batch: Waiting[]): Promise<StoredAck[]> {
    // Receipt order across replicas: while this transaction holds its devEuis' locks (taken in one global order, so
    // two batches never deadlock), no other replica stores a message of those devices; the next one that does is
    // numbered (receipt_seq) after these rows and committed after them.
    const devEuis = [...new Set(batch.flatMap((w) => (w.input.devEui ? [w.input.devEui] : [])))].sort();
    if (devEuis.length > 0) {
      await manager.query(`SELECT pg_advisory_xact_lock(${RECEIPT_LOCK_CLASS}, hashtext(e)) FROM unnest($1::text[]) AS e`, [devEuis]);
    }
    // Repeats within the batch: the first occurrence of a key leads, the others follow its outcome.
    const leaders = new Map<string, Waiting>();
    const leaderOf: (Waiting | null)[] = batch.map((waiting) => {
      const { dedupKey, dedupScope } = waiting.input;
      if (dedupKey === null) return null;
      const mapKey = `${dedupScope}\u0000${dedupKey}`;
      const leader = leaders.get(mapKey);
      if (leader) return leader;
      leaders.set(mapKey, waiting);
      return null;
    });

    const originals = new Map<string, { id: string; receivedAt: Date }>();
    if (leaders.size > 0) {
      const keyed = [...leaders.values()];
      const claimed = await manager.query<{ raw_ingestion_message_id: string }[]>(
        `INSERT INTO ingestion_dedup_keys (dedup_scope, dedup_key, raw_ingestion_message_id, raw_received_at, expires_at)
         SELECT s, k, id, r, r + make_interval(hours => ${DEDUP_WINDOW_HOURS})
           FROM unnest($1::text[], $2::text[], $3::uuid[], $4::timestamptz[]) AS t(s, k, id, r)
         ON CONFLICT (dedup_scope, dedup_key) DO UPDATE
           SET raw_ingestion_message_id = EXCLUDED.raw_ingestion_message_id,
               raw_received_at = EXCLUDED.raw_received_at,
               expires_at = EXCLUDED.expires_at
           WHERE ingestion_dedup_keys.expires_at <= EXCLUDED.raw_received_at
         RETURNING raw_ingestion_message_id`,
        [
          keyed.map((w) => w.input.dedupScope),
          keyed.map((w) => w.input.dedupKey),
          keyed.map((w) => w.id),
          keyed.map((w) => w.input.receivedAt.toISOString()),
        ],
      );
      const won = new Set(claimed.map((row) => row.raw_ingestion_message_id));
      const lost = keyed.filter((w) => !won.has(w.id));
      if (lost.length > 0) {
        const rows = await manager.query<{ dedup_scope: string; dedup_key: string; raw_ingestion_message_id: string; raw_received_at: Date }[]>(
          `SELECT d.dedup_scope, d.dedup_key, d.raw_ingestion_message_id, d.raw_received_at
             FROM ingestion_dedup_keys d
             JOIN unnest($1::text[], $2::text[]) AS t(s, k) ON d.dedup_scope = t.s AND d.dedup_key = t.k`,
          [lost.map((w) => w.input.dedupScope), lost.map((w) => w.input.dedupKey)],
        );
        const byKey = new Map(rows.map((row) => [`${row.dedup_scope}\u0000${row.dedup_key}`, row]));
        for (const w of lost) {
          const row = byKey.get(`${w.input.dedupScope}\u0000${w.input.dedupKey}`);
          if (!row) throw new Error('dedup key vanished between claim and read');
          originals.set(w.id, { id: row.raw_ingestion_message_id, receivedAt: row.raw_received_at });
        }
      }
    }

    const inserts = batch.filter((w, index) => leaderOf[index] === null && !originals.has(w.id));
    if (inserts.length > 0) await this.insertRows(manager, inserts);

    return batch.map((w, index) => {
      const leader = leaderOf[index];
      const self = leader ?? w;
      const original = originals.get(self.id);
      if (original) return { rawIngestionMessageId: original.id, receivedAt: original.receivedAt.toISOString(), duplicate: true };
      return { rawIngestionMessageId: self.id, receivedAt: self.input.receivedAt.toISOString(), duplicate: leader !== null };
    });
  }

  private async insertRows(manager: EntityManager, rows: Waiting[]): Promise<void> {
    const params: unknown[] = [];
    const tuples = rows.map(({ id, input }) => {
      const base = params.length;
      params.push(
        id,
        input.receivedAt.toISOString(),
        input.source,
        input.event,
        input.credentialId,
        input.tenantId,
        input.dedupKey === null ? null : input.dedupScope,
        input.dedupKey,
        input.devEui,
        input.observedAt?.toISOString() ?? null,
        input.rawPayload === null ? null : JSON.stringify(input.rawPayload),
        input.connectionData === null ? null : JSON.stringify(input.connectionData),
        input.correlationId,
        input.contentType,
        input.body,
        input.body.length,
        input.status,
        input.status === 'rejected' ? 'malformed_payload' : null,
      );
      return `(${Array.from({ length: COLUMNS }, (_, i) => `$${base + i + 1}`).join(', ')})`;
    });
    await manager.query(
      `INSERT INTO raw_ingestion_messages (raw_ingestion_message_id, received_at, source, event, credential_id, tenant_id,
         dedup_scope, dedup_key, dev_eui, observed_at, raw_payload, connection_data, correlation_id, content_type, body, size_bytes,
         processing_status, processing_reason)
       VALUES ${tuples.join(', ')}`,
      params,
    );
  }
}
