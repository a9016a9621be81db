import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable } from '@nestjs/common';
import { EventBus, IEvent } from '@nestjs/cqrs';
import { DataSource, EntityManager } from 'typeorm';
import { AuditEntry, AuditWriter } from '../audit/audit-writer';
import { ConstraintErrors, mapConstraintViolation } from '../database/pg-errors';
import { JobSpec } from '../jobs/job';
import { JobQueue } from '../jobs/job-queue';

/** What a command handler gets while its transaction is open. */
export interface TransactionScope {
  /** Every repository call of the command goes through this manager. */
  readonly manager: EntityManager;
  /** Queues a domain event; it reaches the EventBus only after COMMIT and never after a rollback. */
  publish(event: IEvent): void;
  /** Writes an audit row in this transaction. */
  audit(entry: AuditEntry): Promise<void>;
  /** Writes many audit rows in this transaction, in a few statements (bulk operations). */
  auditMany(entries: readonly AuditEntry[]): Promise<void>;
  /**
   * Writes a background job in this transaction (transactional outbox): it runs only after COMMIT, and never
   * after a rollback. Returns the job id, or null when its key is already pending or running.
   */
  enqueue<P extends object>(job: JobSpec<P>): Promise<string | null>;
}

export interface RunOptions {
  /**
   * Constraint name -> domain error: a violation of a named constraint raised anywhere in the transaction
   * (a statement of the work or the COMMIT, for deferred constraints) is answered with that error instead of
   * a 500. This is how a lost race that passed the handler's own check (two creates of one key) becomes a 409.
   */
  constraints?: ConstraintErrors;
}

/**
 * One transaction per command. The handler owns it by calling `run`; a nested `run` (a command dispatched
 * from inside another) joins the outer transaction, so one request is still one commit.
 */
@Injectable()
export class UnitOfWork {
  private readonly current = new AsyncLocalStorage<TransactionScope>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly eventBus: EventBus,
    private readonly auditWriter: AuditWriter,
    private readonly jobs: JobQueue,
  ) {}

  async run<T>(work: (scope: TransactionScope) => Promise<T>, options: RunOptions = {}): Promise<T> {
    try {
      return await this.runTransaction(work);
    } catch (error) {
      throw mapConstraintViolation(error, options.constraints) ?? error;
    }
  }

  private async runTransaction<T>(work: (scope: TransactionScope) => Promise<T>): Promise<T> {
    const outer = this.current.getStore();
    if (outer) return work(outer);

    const events: IEvent[] = [];
    const result = await this.dataSource.transaction(async (manager) => {
      const scope: TransactionScope = {
        manager,
        publish: (event) => {
          events.push(event);
        },
        audit: async (entry) => {
          await this.auditWriter.write(manager, entry);
        },
        auditMany: (entries) => this.auditWriter.writeMany(manager, entries),
        enqueue: (job) => this.jobs.enqueue(job, manager),
      };
      return this.current.run(scope, () => work(scope));
    });
    if (events.length > 0) this.eventBus.publishAll(events);
    return result;
  }
}
