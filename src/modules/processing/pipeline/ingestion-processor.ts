import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import type { Counter } from 'prom-client';
import { DataSource, EntityManager, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { isDatabaseUnavailable } from '../../../shared/errors/classify-error';
import { reportConnectionLoss, ShutdownState } from '../../../shared/lifecycle/shutdown-state';
import { AppConfig } from '../../../config/app-config';
import { recordDevicesLastSeen } from '../../devices';
import { DebugCaptureStore } from '../../flows';
import { RawMessageOutcome, RawMessageOutcomes, RawMessageWriter, withStoredMapping } from '../../ingestion';
import { SandboxUnavailableError, storedUplinkOf, type JsonObject } from '../../flows/engine';
import { MessageOutcome, PreparedFlowVersion, RoutedDevice, StoredUplinkProcessor } from '../run/stored-uplink-processor';
import { INGESTION_PROCESSED_TOTAL } from '../run/processing-metrics';
import { CLAIM_SQL, ClaimedRow, decideRoute, ROUTE_SQL, RouteRow, RoutingDecision } from './routing';

/** What one batch did (for tests and benchmarks). */
export interface BatchSummary {
  claimed: number;
  /** Claimed but left for later: an earlier message of the same devEui is still being processed elsewhere. */
  deferred: number;
  processed: number;
}

type RawUpdate = RawMessageOutcome;

/**
 * How long a worker lets uplinks gather before it claims, unless its last batch was full. A batch costs the same
 * dozen statements whatever its size, so claiming what arrived in this window instead of each group commit's few
 * rows cuts the database work per uplink; it adds at most this much to the processing lag, never to the ack.
 */
export const GATHER_MS = 25;

/**
 * The live processing pipeline. Each worker loops: in one transaction it claims the oldest pending raw messages
 * (`FOR UPDATE SKIP LOCKED`, so workers and replicas never take the same message), routes them, runs the active
 * flow version of each routed device, and stores the values, one execution per run message and every message's
 * outcome (through ingestion's RawMessageOutcomes), then commits. A crash before the commit leaves the messages pending for the next worker: no message is
 * processed twice and none is skipped.
 *
 * Per-device receipt order: a message is run only when no earlier message of its devEui is pending outside this
 * worker's claim (one held by another worker stays pending until that worker commits), and the messages of one
 * device in a batch run one after another in receipt order. Devices run concurrently.
 *
 * The transaction commits without waiting for the WAL flush: a database crash can lose only whole latest batches,
 * which puts their messages back to pending, and they are processed again from the stored raw message.
 *
 * Waking: a commit of this replica's raw message writer wakes one idle worker when none is busy; while one is,
 * it only marks that more has arrived, and the busy worker claims again as soon as it finishes. So a replica that
 * keeps up runs one batch at a time, as large as what arrived meanwhile (each batch costs the same dozen
 * statements whatever its size), and a full batch brings in another worker, so a backlog is drained by all of
 * them. The poll finds what other replicas stored. Before a claim that does not follow a full batch, the worker
 * waits GATHER_MS (counted busy), so what arrives meanwhile joins that claim.
 */
@Injectable()
export class IngestionProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Processing');
  private running = false;
  private loops: Promise<void>[] = [];
  private wakers = new Set<() => void>();
  private gatherers = new Set<() => void>();
  /** Workers inside a batch. */
  private busy = 0;
  /** Something was stored since the latest claim began. */
  private arrived = false;
  private unsubscribe: (() => void) | null = null;
  private lastFailureLog = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly runner: StoredUplinkProcessor,
    private readonly writer: RawMessageWriter,
    private readonly captures: DebugCaptureStore,
    private readonly outcomes: RawMessageOutcomes,
    @InjectMetric(INGESTION_PROCESSED_TOTAL) private readonly processedTotal: Counter<'status' | 'reason'>,
    @Optional() private readonly shutdown?: ShutdownState,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.processingEnabled) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.unsubscribe = this.writer.onStored(() => this.stored());
    this.loops = Array.from({ length: this.config.processingWorkers }, () => this.loop());
  }

  /** Stops claiming; the batches in flight commit first. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.unsubscribe?.();
    this.wakeAll();
    for (const cut of this.gatherers) cut();
    await Promise.all(this.loops);
    this.loops = [];
  }

  private wakeAll(): void {
    for (const wake of this.wakers) wake();
  }

  private wakeOne(): void {
    for (const wake of this.wakers) return wake();
  }

  private stored(): void {
    this.arrived = true;
    if (this.busy === 0) this.wakeOne();
  }

  private async loop(): Promise<void> {
    let full = false;
    while (this.running) {
      let summary: BatchSummary | null = null;
      // A gathering worker counts as busy: a commit meanwhile is left for its claim, not handed to another worker.
      this.busy += 1;
      if (!full) await this.gather();
      if (!this.running) {
        this.busy -= 1;
        break;
      }
      this.arrived = false;
      try {
        summary = await this.processBatch();
      } catch (error) {
        this.logFailure(error);
      } finally {
        this.busy -= 1;
      }
      if (!this.running) break;
      full = summary !== null && summary.claimed >= this.config.processingBatchSize;
      // A full batch: there is probably more, for this worker and another one.
      if (summary && summary.processed > 0 && summary.claimed >= this.config.processingBatchSize) {
        this.wakeOne();
        continue;
      }
      // Stored while this batch ran: claim again. Otherwise wait for a commit of this replica or the poll.
      if (summary && this.arrived) continue;
      await this.waitForWork(summary === null ? Math.max(this.config.processingPollIntervalMs, 1000) : this.config.processingPollIntervalMs);
    }
  }

  /** Until woken, or until the poll finds no other worker of this replica in a batch (that one claims again when it ends). */
  private async waitForWork(pollMs: number): Promise<void> {
    while (this.running && !(await this.idle(pollMs)) && this.busy > 0);
  }

  /** GATHER_MS, cut short by stop(). */
  private gather(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.gatherers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, GATHER_MS);
      this.gatherers.add(done);
    });
  }

  /** True when woken, false when `ms` passed. */
  private idle(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve(woken);
      };
      const wake = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.wakers.add(wake);
    });
  }

  /** Claims, runs and commits one batch. Exposed for tests and benchmarks. */
  async processBatch(batchSize = this.config.processingBatchSize): Promise<BatchSummary> {
    const queryRunner = this.dataSource.createQueryRunner();
    await queryRunner.connect();
    try {
      await queryRunner.startTransaction();
      const manager = queryRunner.manager;
      // No wait for the WAL flush (see the class comment). And the claim walks the queue's index in receipt order
      // (a plain index scan, which stops at the batch size and marks the entries of processed messages dead as it
      // passes them) instead of a bitmap scan, which visits every entry still in the index, processed ones included
      // until vacuum removes them (thousands of heap pages per claim under a steady load).
      await manager.query(`SELECT set_config('synchronous_commit', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
      const claimed = await manager.query<ClaimedRow[]>(CLAIM_SQL, [batchSize]);
      const ready = claimed.filter((row) => !row.blocked);
      const updates = ready.length > 0 ? await this.processClaimed(manager, ready) : [];
      await this.outcomes.record(manager, updates);
      await queryRunner.commitTransaction();
      for (const update of updates) this.processedTotal.inc({ status: update.status, reason: update.reason ?? '' });
      return { claimed: claimed.length, deferred: claimed.length - ready.length, processed: updates.length };
    } catch (error) {
      if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await queryRunner.release();
    }
  }

  private async processClaimed(manager: EntityManager, rows: ClaimedRow[]): Promise<RawUpdate[]> {
    const devEuis = [...new Set(rows.map((row) => row.dev_eui).filter((eui): eui is string => eui !== null))];
    const routes = devEuis.length > 0 ? await manager.query<RouteRow[]>(ROUTE_SQL, [devEuis]) : [];
    const byEui = new Map(routes.map((route) => [route.dev_eui, route]));

    const updates = new Map<string, RawUpdate>();
    const toRun: { row: ClaimedRow; decision: Extract<RoutingDecision, { kind: 'run' }> }[] = [];
    for (const row of rows) {
      const decision = decideRoute(row, row.dev_eui === null ? undefined : byEui.get(row.dev_eui));
      if (decision.kind === 'run') toRun.push({ row, decision });
      else updates.set(row.raw_ingestion_message_id, { rawIngestionMessageId: row.raw_ingestion_message_id, ...decision.update, flowExecutionId: null });
    }
    if (toRun.length > 0) {
      const outcomes = await this.runAll(manager, toRun);
      const captured = await this.captures.capture(manager, outcomes.map((o) => ({ flowId: o.prepared.flowId, flowExecutionId: o.flowExecutionId })));
      const stored = await this.runner.store(manager, outcomes, { mode: 'live', captured });
      await recordDevicesLastSeen(manager, stored.map((outcome) => ({ deviceId: outcome.device.deviceId, receivedAt: outcome.message.receivedAt })));
      for (const outcome of stored) {
        updates.set(outcome.message.rawIngestionMessageId, {
          rawIngestionMessageId: outcome.message.rawIngestionMessageId,
          status: 'processed',
          reason: null,
          deviceId: outcome.device.deviceId,
          tenantId: outcome.device.tenantId,
          flowExecutionId: outcome.flowExecutionId,
        });
      }
    }
    // In claim order, so the outcome updates lock rows in the order the claim did.
    return rows.map((row) => updates.get(row.raw_ingestion_message_id)!);
  }

  /** Runs the routed messages: devices concurrently, each device's messages in receipt order. */
  private async runAll(manager: EntityManager, toRun: { row: ClaimedRow; decision: Extract<RoutingDecision, { kind: 'run' }> }[]): Promise<MessageOutcome[]> {
    const prepared = new Map<string, PreparedFlowVersion>();
    for (const { decision } of toRun) {
      if (!prepared.has(decision.flowVersionId)) prepared.set(decision.flowVersionId, await this.runner.prepare(decision.flowVersionId, decision.fieldTag, manager));
    }
    const parameters = new Map<string, Map<string, JsonObject>>();
    for (const [versionId, version] of prepared) {
      const devices = uniqueDevices(toRun.filter((item) => item.decision.flowVersionId === versionId).map((item) => item.decision.device));
      parameters.set(versionId, await this.runner.parametersFor(manager, version, devices));
    }

    const byDevice = new Map<string, { row: ClaimedRow; decision: Extract<RoutingDecision, { kind: 'run' }> }[]>();
    for (const item of toRun) {
      const list = byDevice.get(item.decision.device.deviceId) ?? [];
      list.push(item);
      byDevice.set(item.decision.device.deviceId, list);
    }
    const results = await Promise.all(
      [...byDevice.values()].map(async (items) => {
        const outcomes: MessageOutcome[] = [];
        for (const { row, decision } of items) {
          const version = prepared.get(decision.flowVersionId)!;
          const message = storedUplinkOf(withStoredMapping(row));
          const params = parameters.get(decision.flowVersionId)?.get(decision.device.deviceId) ?? {};
          outcomes.push(await this.runner.run(version, message, decision.device, params, 'live'));
        }
        return outcomes;
      }),
    );
    return results.flat();
  }

  private logFailure(error: unknown): void {
    const now = Date.now();
    if (now - this.lastFailureLog < 10_000) return;
    this.lastFailureLog = now;
    const failed = (reason: string) => `Processing a batch failed (${reason}); its messages stay pending and are retried.`;
    if (connectionLost(error)) {
      // A stop that ends the database as well (Ctrl-C with an embedded PostgreSQL) cuts the batch in flight.
      const message = failed(`the database connection was lost: ${error instanceof Error ? error.message : String(error)}`);
      reportConnectionLoss(this.logger, message, () => !this.running || this.shutdown?.isShuttingDown === true);
      return;
    }
    this.logger.warn(
      failed(error instanceof SandboxUnavailableError ? 'the script sandbox is unavailable' : error instanceof Error ? error.message : String(error)),
    );
  }
}

/**
 * The batch's database connection went away: the database is unreachable, or the connection broke mid-batch, after
 * which TypeORM has released the batch's query runner and its next statement fails with QueryRunnerAlreadyReleasedError.
 */
function connectionLost(error: unknown): boolean {
  return isDatabaseUnavailable(error) || error instanceof QueryRunnerAlreadyReleasedError;
}

function uniqueDevices(devices: RoutedDevice[]): RoutedDevice[] {
  return [...new Map(devices.map((device) => [device.deviceId, device])).values()];
}
