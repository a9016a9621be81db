import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { JobContext, JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import type { JsonObject } from '../../flows/engine';
import { MessageOutcome, PreparedFlowVersion, RoutedDevice, StoredUplinkProcessor } from '../run/stored-uplink-processor';
import { FlowReplayEntity, ReplayError, ReplayPosition } from '../persistence/flow-replay.entity';
import { addComparison, emptyDiff, ReplayDiff } from '../domain/replay-diff';
import { REPLAY_JOB } from './replay-job';
import { ReplayMessage, ReplayMessageReader } from './replay-messages';

/** Messages run and committed together: one transaction per batch. */
export const REPLAY_BATCH_SIZE = 200;
const MAX_ATTEMPTS = 10;

interface Counters {
  processedMessages: number;
  succeeded: number;
  failed: number;
  filtered: number;
}

/** What a batch commit checks: the replay is still running and nobody else committed since `after`. */
interface Progress {
  after: ReplayPosition | null;
  counters: Counters;
  diff: ReplayDiff | null;
}

/**
 * Runs a replay in the background: its messages in (observedAt, rawReceivedAt, id) order, a batch at a time.
 * Each batch's results (values and `replay` executions; nothing for a dry run), the counters, the diff and the
 * resume point commit in one transaction, under the replay's row lock and only while it is `running` and its
 * resume point is the one the batch started from. So a cancellation stops it between batches, a run taken over
 * after a crash (the job's lease expired) continues exactly after the last committed batch, and two runs of one
 * replay never both commit a batch. Replays never send e-mail. After its last attempt the replay is `failed`.
 */
@Injectable()
@JobHandler({ name: REPLAY_JOB, maxAttempts: MAX_ATTEMPTS })
export class RunReplayHandler implements JobHandlerInstance<{ replayId?: unknown }> {
  private readonly logger = new Logger('Replays');

  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly runner: StoredUplinkProcessor,
  ) {}

  async handle(payload: { replayId?: unknown }, context: JobContext): Promise<void> {
    if (typeof payload.replayId !== 'string') return;
    const replayId = payload.replayId;
    try {
      await this.run(replayId, context.signal);
    } catch (error) {
      // A stop for shutdown is no failure of the replay: another attempt resumes it.
      if (context.signal.aborted || context.attempt < context.maxAttempts) throw error;
      this.logger.error(`Replay ${replayId} failed after ${context.attempt} attempts: ${error instanceof Error ? error.message : String(error)}`);
      await this.markFailed(replayId, { code: 'replay_error', message: 'The replay failed repeatedly and was stopped; the results of the batches committed before stay.' });
    }
  }

  /** Moves an unfinished replay to `failed` (a finished one is left as it is). */
  async markFailed(replayId: string, error: ReplayError): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `UPDATE flow_replays SET status = 'failed', error = $2::jsonb, started_at = coalesce(started_at, clock_timestamp()), finished_at = clock_timestamp()
        WHERE replay_id = $1 AND status IN ('queued', 'running') RETURNING 1`,
      [replayId, JSON.stringify(error)],
    );
    return rows.length > 0;
  }

  private async run(replayId: string, signal: AbortSignal): Promise<void> {
    const replay = await this.start(replayId);
    if (!replay) return;
    const reader = new ReplayMessageReader({ ...replay, deviceTypeId: replay.deviceTypeId });
    const candidate = await this.runner.prepare(replay.flowVersionId);
    const active = replay.comparedWithVersionId === null ? null : await this.runner.prepare(replay.comparedWithVersionId);
    let progress: Progress = {
      after: replay.resumeAfter,
      counters: { processedMessages: replay.processedMessages, succeeded: replay.succeeded, failed: replay.failed, filtered: replay.filtered },
      diff: active === null ? null : (replay.diff ?? emptyDiff(active.flowVersionId)),
    };
    for (;;) {
      signal.throwIfAborted();
      if (!(await this.stillRunning(replayId))) return;
      const messages = await reader.next(this.dataSource.manager, progress.after, REPLAY_BATCH_SIZE);
      if (messages.length === 0) {
        await this.finish(replayId, progress);
        return;
      }
      const next = await this.runBatch(replay, candidate, active, messages, progress);
      if (next === null) return;
      progress = next;
    }
  }

  /**
   * The replay to run, moved from `queued` to `running` (with its message count, audited as `flow_replay.started`),
   * or null when it is finished, cancelled or gone.
   */
  private async start(replayId: string): Promise<(FlowReplayEntity & { deviceTypeId: string }) | null> {
    return this.unitOfWork.run(async (tx) => {
      const replay = await tx.manager.getRepository(FlowReplayEntity).createQueryBuilder('r').setLock('pessimistic_write').where('r.replay_id = :replayId', { replayId }).getOne();
      if (!replay || (replay.status !== 'queued' && replay.status !== 'running')) return null;
      const [flow] = await tx.manager.query<{ device_type_id: string }[]>(`SELECT device_type_id FROM flows WHERE flow_id = $1`, [replay.flowId]);
      const selected = { ...replay, deviceTypeId: flow!.device_type_id };
      if (replay.status === 'running') return selected;
      const totalMessages = await new ReplayMessageReader(selected).count(tx.manager);
      const [row] = await tx.manager.query<{ started_at: Date }[]>(
        `UPDATE flow_replays SET status = 'running', started_at = clock_timestamp(), total_messages = $2 WHERE replay_id = $1 RETURNING started_at`,
        [replayId, totalMessages],
      );
      await tx.audit({
        eventType: 'flow_replay.started',
        action: 'start',
        entityType: 'flow_replay',
        entityId: replayId,
        tenantId: replay.tenantId,
        metadata: { flowId: replay.flowId, status: { before: 'queued', after: 'running' }, totalMessages, dryRun: replay.dryRun },
      });
      return { ...selected, status: 'running', startedAt: row!.started_at, totalMessages };
    });
  }

  private async stillRunning(replayId: string): Promise<boolean> {
    const [row] = await this.dataSource.query<{ status: string }[]>(`SELECT status FROM flow_replays WHERE replay_id = $1`, [replayId]);
    return row?.status === 'running';
  }

  /** Runs and commits one batch; null when the replay stopped running or another run committed first. */
  private async runBatch(
    replay: FlowReplayEntity,
    candidate: PreparedFlowVersion,
    active: PreparedFlowVersion | null,
    messages: ReplayMessage[],
    progress: Progress,
  ): Promise<Progress | null> {
    const devices = [...new Map(messages.map((message) => [message.device.deviceId, message.device])).values()];
    const manager = this.dataSource.manager;
    const candidateParameters = await this.runner.parametersFor(manager, candidate, devices);
    const activeParameters = active ? await this.runner.parametersFor(manager, active, devices) : null;
    const outcomes: MessageOutcome[] = [];
    const diff = progress.diff === null ? null : (structuredClone(progress.diff) as ReplayDiff);
    for (const { uplink, device } of messages) {
      const outcome = await this.runOne(candidate, uplink, device, candidateParameters);
      outcomes.push(outcome);
      if (active && activeParameters && diff) {
        const reference = await this.runOne(active, uplink, device, activeParameters);
        addComparison(diff, { rawIngestionMessageId: uplink.rawIngestionMessageId, deviceId: device.deviceId, observedAt: uplink.observedAt.toISOString() }, reference.result, outcome.result);
      }
    }
    const after = messages[messages.length - 1]!.position;
    return this.unitOfWork.run(async (tx) => {
      if (!(await this.lockIfCurrent(tx.manager, replay.replayId, progress.after))) return null;
      const results = replay.dryRun ? outcomes : await this.runner.store(tx.manager, outcomes, { mode: 'replay', replayId: replay.replayId });
      const counters = { ...progress.counters };
      for (const { result } of results) {
        counters.processedMessages += 1;
        counters[result.status] += 1;
      }
      await tx.manager.query(
        `UPDATE flow_replays SET processed_messages = $2, succeeded = $3, failed = $4, filtered = $5, resume_after = $6::jsonb, diff = $7::jsonb
          WHERE replay_id = $1`,
        [replay.replayId, counters.processedMessages, counters.succeeded, counters.failed, counters.filtered, JSON.stringify(after), diff === null ? null : JSON.stringify(diff)],
      );
      return { after, counters, diff };
    });
  }

  private runOne(prepared: PreparedFlowVersion, uplink: ReplayMessage['uplink'], device: RoutedDevice, parameters: Map<string, JsonObject>): Promise<MessageOutcome> {
    return this.runner.run(prepared, uplink, device, parameters.get(device.deviceId) ?? {}, 'replay');
  }

  /** Locks the replay row; true when it is still running from the resume point `after`. */
  private async lockIfCurrent(manager: EntityManager, replayId: string, after: ReplayPosition | null): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      `SELECT 1 FROM flow_replays WHERE replay_id = $1 AND status = 'running' AND resume_after IS NOT DISTINCT FROM $2::jsonb FOR UPDATE`,
      [replayId, after === null ? null : JSON.stringify(after)],
    );
    return rows.length > 0;
  }

  /** `succeeded`, with the final count of messages (messages routed later into the range may have joined). */
  private async finish(replayId: string, progress: Progress): Promise<void> {
    await this.unitOfWork.run(async (tx) => {
      if (!(await this.lockIfCurrent(tx.manager, replayId, progress.after))) return;
      await tx.manager.query(
        `UPDATE flow_replays SET status = 'succeeded', finished_at = clock_timestamp(), total_messages = processed_messages WHERE replay_id = $1`,
        [replayId],
      );
    });
  }
}
