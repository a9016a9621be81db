import { Logger } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { DataSource, QueryRunnerAlreadyReleasedError } from 'typeorm';
import type { AppConfig } from '../../../config/app-config';
import { ShutdownState } from '../../../shared/lifecycle/shutdown-state';
import type { RawMessageWriter } from '../../ingestion/ingest/raw-message-writer';
import type { StoredUplinkProcessor } from '../run/stored-uplink-processor';
import { IngestionProcessor } from './ingestion-processor';

describe('IngestionProcessor: what a failed batch says', () => {
  /** What a running processor logs for a failed batch, at warn and at debug level; `stopping`: while the service stops. */
  const said = (error: unknown, { stopping = false } = {}): { warn: string[]; debug: string[] } => {
    jest.useFakeTimers();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    try {
      const shutdown = new ShutdownState();
      const processor = new IngestionProcessor(
        {} as DataSource,
        {} as AppConfig,
        {} as StoredUplinkProcessor,
        {} as RawMessageWriter,
        {} as never,
        {} as never,
        {} as Counter<'status' | 'reason'>,
        shutdown,
      );
      (processor as unknown as { running: boolean }).running = true;
      (processor as unknown as { logFailure(error: unknown): void }).logFailure(error);
      // The stop signal may arrive just after the database ended the connection.
      if (stopping) shutdown.begin();
      jest.runAllTimers();
      return { warn: warn.mock.calls.map(([message]) => String(message)), debug: debug.mock.calls.map(([message]) => String(message)) };
    } finally {
      warn.mockRestore();
      debug.mockRestore();
      jest.useRealTimers();
    }
  };
  const LOST = /^Processing a batch failed \(the database connection was lost: .+\); its messages stay pending and are retried\.$/;
  const lost = [
    ['a query runner released after its connection broke', new QueryRunnerAlreadyReleasedError()],
    ['a connection terminated mid-batch', new Error('Connection terminated unexpectedly')],
    ['a database that is not there', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  ] as const;

  it.each(lost)('%s: the database connection was lost, the messages are retried', (_case, error) => {
    expect(said(error)).toEqual({ warn: [expect.stringMatching(LOST)], debug: [] });
  });

  it.each(lost)('%s while the service stops: part of the stop, said at debug level only', (_case, error) => {
    expect(said(error, { stopping: true })).toEqual({ warn: [], debug: [expect.stringMatching(LOST)] });
  });

  it('any other failure: its own message, at once', () => {
    expect(said(new Error('value too long'))).toEqual({ warn: ['Processing a batch failed (value too long); its messages stay pending and are retried.'], debug: [] });
  });
});
