/*
 * The ingestion module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { IngestFastPath } from './ingest/ingest-fast-path';
export { RawMessageWriter } from './ingest/raw-message-writer';
export { IngestionModule } from './ingestion.module';
export { RawMessageOutcomes } from './persistence/raw-message-outcomes';
export type { RawMessageOutcome } from './persistence/raw-message-outcomes';
export { RawMessagePins } from './persistence/raw-message-pins';
export { RawMessageReader } from './persistence/raw-message-reader';
export type { StoredRawMessage } from './persistence/raw-message-reader';
export { storedMappingColumns, storedMappingOutputs, withStoredMapping } from './persistence/stored-mapping';
export type { StoredMappingRow } from './persistence/stored-mapping';
