import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { preparedQuery } from '../../../shared/database/prepared-query';
import { timeOrderedId } from '../../../shared/database/time-ordered-id';
import { DependencyFailureError } from '../../../shared/errors/domain-error';
import type { IngestSource } from '../persistence/raw-ingestion-message.entity';
import { storesMappingColumns } from '../persistence/stored-mapping';
import { dedupClaimSql, DedupHolder, dedupMapKey } from './deduplication';

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
  /** The mapping: stored in columns only for a source whose mapping cannot be redone from the body (storesMappingColumns). */
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

/** Rows per statement: 18 parameters each (and 5 arrays), well under PostgreSQL's 65535. */
export const MAX_BATCH = 500;
/** Batches of up to this many rows are stored by a prepared statement (one per row count and connection). */
const MAX_PREPARED_ROWS = 64;
/** The advisory lock class of per-devEui receipt locks (the second key is the devEui's hash). */
export const RECEIPT_LOCK_CLASS = 1969;
const RAW_COLUMNS = [
  'raw_ingestion_message_id',
  'received_at',
  'source',
  'event',
  'credential_id',
  'tenant_id',
  'dedup_scope',
  'dedup_key',
  'dev_eui',
  'observed_at',
  'raw_payload',
  'connection_data',
  'correlation_id',
  'content_type',
  'body',
  'size_bytes',
  'processing_status',
  'processing_reason',
];
const COLUMN_TYPES = ['uuid', 'timestamptz', 'varchar', 'varchar', 'uuid', 'uuid', 'varchar', 'varchar', 'char(16)', 'timestamptz', 'jsonb', 'jsonb', 'varchar', 'varchar', 'bytea', 'int', 'varchar', 'varchar'];
const COLUMNS = RAW_COLUMNS.length;

/**
 * Group commit of raw messages. A request is answered only once its row is committed, but requests do not each
 * pay a transaction: whatever arrives while a commit is in flight waits for the next batch, which is one
 * statement committed on its own (the dedup claims and the multi-row INSERT together: one round trip). When a
 * batch fails, its rows are retried one statement each, so a row the database refuses fails only its own request
 * (503 database); while the database is down, every request fails.
 *
 * Dedup (see deduplication.ts) is decided in the same statement: the claim returns, for every key, the message
 * that holds it: ours, or the original; only messages holding their key are inserted. Repeats inside one batch
 * share the first one's outcome.
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
      this.queue.push({ input, id: timeOrderedId(), resolve, reject });
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

  /** Stores the batch (one statement, its own transaction) and answers each request. */
  private async commit(batch: Waiting[]): Promise<void> {
    // Repeats within the batch: the first occurrence of a key leads, the others follow its outcome.
    const leaders = new Map<string, Waiting>();
    const leaderOf: (Waiting | null)[] = batch.map((waiting) => {
      const { dedupKey, dedupScope } = waiting.input;
      if (dedupKey === null) return null;
      const mapKey = dedupMapKey(dedupScope, dedupKey);
      const leader = leaders.get(mapKey);
      if (leader) return leader;
      leaders.set(mapKey, waiting);
      return null;
    });
    const holders = await this.insert(
      [...leaders.values()],
      batch.filter((_, index) => leaderOf[index] === null),
    );

    // Committed: nothing below may send the batch back to be stored again.
    const holderOf = new Map(holders.map((row) => [dedupMapKey(row.dedup_scope, row.dedup_key), row]));
    batch.forEach((waiting, index) => {
      const self = leaderOf[index] ?? waiting;
      const duplicate = leaderOf[index] !== null;
      if (self.input.dedupKey === null) {
        waiting.resolve({ rawIngestionMessageId: self.id, receivedAt: self.input.receivedAt.toISOString(), duplicate });
        return;
      }
      const holder = holderOf.get(dedupMapKey(self.input.dedupScope, self.input.dedupKey));
      if (!holder) return this.fail([waiting], new Error('the dedup claim returned no holder'));
      if (holder.raw_ingestion_message_id === self.id) {
        waiting.resolve({ rawIngestionMessageId: self.id, receivedAt: self.input.receivedAt.toISOString(), duplicate });
      } else {
        // A key held by another message: this one is a repeat of it and was not inserted.
        waiting.resolve({ rawIngestionMessageId: holder.raw_ingestion_message_id, receivedAt: holder.raw_received_at.toISOString(), duplicate: true });
      }
    });
    for (const listener of this.storedListeners) listener();
  }

  private fail(batch: Waiting[], error: unknown): void {
    this.logger.error(`raw message not stored: ${(error as Error).message}`);
    const failure = new DependencyFailureError('database', 'unavailable', 'The message could not be stored. Retry later.');
    for (const waiting of batch) waiting.reject(failure);
  }

  /**
   * One statement: claims the keys of `keyed` (the holder of each comes back: the claimant, or the message that
   * holds an unexpired claim), then inserts the rows of `rows` that have no key or hold theirs.
   */
  private async insert(keyed: Waiting[], rows: Waiting[]): Promise<DedupHolder[]> {
    const params: unknown[] = [
      keyed.map((w) => w.input.dedupScope),
      keyed.map((w) => w.input.dedupKey),
      keyed.map((w) => w.id),
      keyed.map((w) => w.input.receivedAt.toISOString()),
      [...new Set(rows.flatMap((w) => (w.input.devEui ? [w.input.devEui] : [])))].sort(),
    ];
    const tuples = rows.map(({ id, input }, index) => {
      const base = params.length;
      const mappingColumns = storesMappingColumns(input.source);
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
        input.rawPayload === null || !mappingColumns ? null : JSON.stringify(input.rawPayload),
        input.connectionData === null || !mappingColumns ? null : JSON.stringify(input.connectionData),
        input.correlationId,
        input.contentType,
        input.body,
        input.body.length,
        input.status,
        input.status === 'rejected' ? 'malformed_payload' : null,
      );
      // The first row's casts type the VALUES columns; the other rows' parameters take those types.
      return `(${Array.from({ length: COLUMNS }, (_, i) => `$${base + i + 1}${index === 0 ? `::${COLUMN_TYPES[i]}` : ''}`).join(', ')})`;
    });
    // Receipt order across replicas: before anything is written, the statement takes a transaction lock per devEui
    // of the batch ($5, sorted: one global order, so two batches never deadlock). While it holds them no other
    // replica stores a message of those devices; the next one that does is numbered (receipt_seq, assigned as the
    // rows are inserted) after these rows and committed after them.
    const sql = `WITH locked AS MATERIALIZED (
         SELECT count(pg_advisory_xact_lock(${RECEIPT_LOCK_CLASS}, hashtext(e))) AS n FROM unnest($5::text[]) AS e
       ),
       claimed AS (${dedupClaimSql('(SELECT n FROM locked) >= 0')}),
       incoming (${RAW_COLUMNS.join(', ')}) AS (VALUES ${tuples.join(', ')}),
       stored AS (
         INSERT INTO raw_ingestion_messages (${RAW_COLUMNS.join(', ')})
         SELECT * FROM incoming
          WHERE (SELECT n FROM locked) >= 0
            AND (incoming.dedup_key IS NULL OR incoming.raw_ingestion_message_id IN (SELECT raw_ingestion_message_id FROM claimed))
       )
       SELECT * FROM claimed`;
    // The text depends only on the row count: the common small batches are prepared statements (parsed and planned
    // once per connection); a rare large one is not kept.
    return rows.length <= MAX_PREPARED_ROWS ? preparedQuery<DedupHolder>(this.dataSource, sql, params) : this.dataSource.query(sql, params);
  }
}
