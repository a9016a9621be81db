import { reparseAcceptedBody } from '../../../shared/http/json-body.middleware';
import { mapChirpStackUp, mapHttpUplink, mapTtsMessage, type MapResult } from '../ingest/uplink-mapping';
import type { IngestSource } from './raw-ingestion-message.entity';

/**
 * The mappers that are a function of the body alone: a webhook's message is mapped again from its stored body
 * whenever it is read, so its row keeps the body only (the mapped payload and connection data would add about
 * 700 bytes to a 900-byte ChirpStack body, a third of the WAL and the database's CPU of storing it). An MQTT
 * message's mapper depends on the broker's configured format, so its row keeps the mapping in columns, as every
 * row stored before this rule does; a reader takes the columns when they are set.
 */
const MAPPERS: Partial<Record<IngestSource, (parsed: unknown) => MapResult>> = {
  chirpstack: mapChirpStackUp,
  tts: mapTtsMessage,
  http: mapHttpUplink,
};

/** Whether a mapped message of `source` stores its payload and connection data in columns (else they are mapped again on read). */
export function storesMappingColumns(source: IngestSource): boolean {
  return MAPPERS[source] === undefined;
}

/** What a reader selects to get a message's mapping (`alias` names raw_ingestion_messages): see `withStoredMapping`. */
export const storedMappingColumns = (alias: string): string =>
  `${alias}.source, ${alias}.raw_payload, ${alias}.connection_data,
   CASE WHEN ${alias}.raw_payload IS NULL AND ${alias}.dev_eui IS NOT NULL THEN ${alias}.body END AS mapped_body`;

/** The same columns passed on by a query over a subquery `alias` that selected `storedMappingColumns`. */
export const storedMappingOutputs = (alias: string): string => `${alias}.source, ${alias}.raw_payload, ${alias}.connection_data, ${alias}.mapped_body`;

/** `C`: the type a reader gives connection data (an object of JSON values). */
export interface StoredMappingRow<C extends object = Record<string, unknown>> {
  source: IngestSource;
  raw_payload: { encoding: string; data: string } | null;
  connection_data: C | null;
  /** The body of a mapped message whose mapping is not in columns; null otherwise. */
  mapped_body: Buffer | null;
}

/**
 * Sets the row's `raw_payload` and `connection_data` to the message's mapping, mapping the body again when the row
 * keeps the body only (the same mapper on the same bytes: what was mapped when it arrived). Returns the row.
 */
export function withStoredMapping<T extends StoredMappingRow<object>>(row: T): T {
  if (row.raw_payload !== null || row.mapped_body === null) return row;
  const mapper = MAPPERS[row.source];
  // Only a body that passed every input check when it arrived is stored as a mapped message.
  const parsed = reparseAcceptedBody(row.mapped_body);
  const result = mapper && parsed ? mapper(parsed.value) : null;
  if (result?.kind === 'uplink') {
    row.raw_payload = result.uplink.rawPayload;
    row.connection_data = result.uplink.connectionData as T['connection_data'];
  }
  return row;
}
