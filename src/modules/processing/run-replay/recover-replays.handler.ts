import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import { REPLAY_JOB, replayJobKey } from './replay-job';

const RECOVERY_INTERVAL_MS = 60_000;

/**
 * A replay is never left unfinished without a job to finish it. A worker that dies mid-replay leaves its job
 * `running` until the lease expires; the job system then runs it again, and the run resumes after the last
 * committed batch. Only when no attempt is left (the job is dead, e.g. the process died on its last attempt) is
 * there nothing to resume it: such a replay is marked `failed` here, keeping what its committed batches did.
 */
@Injectable()
@JobHandler({ name: 'flows.replay.recover', everyMs: RECOVERY_INTERVAL_MS })
export class RecoverReplaysHandler implements JobHandlerInstance {
  private readonly logger = new Logger('Replays');

  constructor(private readonly dataSource: DataSource) {}

  async handle(): Promise<void> {
    // For an UPDATE, TypeORM's query() answers [returned rows, affected count].
    const [rows] = await this.dataSource.query<[{ replay_id: string }[], number]>(
      `UPDATE flow_replays r
          SET status = 'failed', started_at = coalesce(r.started_at, clock_timestamp()), finished_at = clock_timestamp(),
              error = jsonb_build_object('code', 'replay_interrupted',
                                         'message', 'The replay stopped with no attempt left to resume it; the results of the batches committed before stay.')
        WHERE r.status IN ('queued', 'running')
          AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.dedup_key = $1 || r.replay_id::text AND j.name = $2 AND j.state IN ('pending', 'running'))
       RETURNING r.replay_id`,
      [replayJobKey(''), REPLAY_JOB],
    );
    for (const row of rows) this.logger.warn(`Replay ${row.replay_id} had no job left to resume it; marked failed.`);
  }
}
