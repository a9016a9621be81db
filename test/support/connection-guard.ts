import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource } from 'typeorm';

/** Thrown (and recorded) when code takes a second pool connection while its own transaction is open. */
export class SecondConnectionError extends Error {}

export interface ConnectionGuard {
  /** Every second-connection attempt seen so far (the stack of the offending call). */
  readonly violations: string[];
}

/**
 * Makes pool starvation visible in every e2e test: a piece of code that holds a transaction open must run all
 * its queries on the transaction's manager. Taking another pool connection meanwhile (an access check, a
 * reader or `dataSource.query` inside `unitOfWork.run`) deadlocks the pool under concurrency, as soon as as many
 * requests as the pool has connections each hold one and wait for a second. The guard marks the async context
 * of every `dataSource.transaction` callback and fails any pool checkout made from inside it, so the request
 * answers 500 and the test that exercises the handler fails with the stack in `violations`.
 */
export function guardSecondConnections(dataSource: DataSource): ConnectionGuard {
  const insideTransaction = new AsyncLocalStorage<true>();
  const violations: string[] = [];
  const driver = dataSource.driver as unknown as { obtainMasterConnection: () => Promise<unknown> };
  const obtain = driver.obtainMasterConnection.bind(driver);
  driver.obtainMasterConnection = () => {
    if (insideTransaction.getStore()) {
      const error = new SecondConnectionError('A second pool connection was requested while a transaction is open');
      violations.push(error.stack ?? error.message);
      return Promise.reject(error);
    }
    return obtain();
  };
  const transaction = dataSource.transaction.bind(dataSource) as (...args: unknown[]) => Promise<unknown>;
  (dataSource as unknown as { transaction: (...args: unknown[]) => Promise<unknown> }).transaction = (...args: unknown[]) => {
    const work = args.at(-1) as (...inner: unknown[]) => Promise<unknown>;
    // The transaction's own connection is taken before the callback runs, outside the marked context.
    return transaction(...args.slice(0, -1), (...inner: unknown[]) => insideTransaction.run(true, () => work(...inner)));
  };
  return { violations };
}
