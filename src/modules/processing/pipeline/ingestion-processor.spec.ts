import { Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { DataSource, QueryRunnerAlreadyReleasedError } from 'typeorm';
import type { AppConfig } from '../../../config/app-config';
import type { RawMessageWriter } from '../../ingestion/ingest/raw-message-writer';
import type { StoredUplinkProcessor } from '../run/stored-uplink-processor';
import { IngestionProcessor } from './ingestion-processor';

describe('IngestionProcessor: what a failed batch says', () => {
  const warnings = (error: unknown): string[] => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const processor = new IngestionProcessor({} as DataSource, {} as AppConfig, {} as StoredUplinkProcessor, {} as RawMessageWriter, {} as never, {} as never, {} as Counter<'status' | 'reason'>);
      (processor as unknown as { logFailure(error: unknown): void }).logFailure(error);
      return warn.mock.calls.map(([message]) => String(message));
    } finally {
      warn.mockRestore();
    }
  };

  it.each([
    ['a query runner released after its connection broke', new QueryRunnerAlreadyReleasedError()],
    ['a connection terminated mid-batch', new Error('Connection terminated unexpectedly')],
    ['a database that is not there', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  ])('%s: the database connection was lost, the messages are retried', (_case, error) => {
    expect(warnings(error)).toEqual([expect.stringMatching(/^Processing a batch failed \(the database connection was lost: .+\); its messages stay pending and are retried\.$/)]);
  });

  it('any other failure: its own message', () => {
    expect(warnings(new Error('value too long'))).toEqual(['Processing a batch failed (value too long); its messages stay pending and are retried.']);
  });
});
