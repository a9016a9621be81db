import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Durable background jobs (transactional outbox): a command inserts its job in its own transaction, so the job
 * exists if and only if the command committed; workers on any replica claim due jobs with
 * `FOR UPDATE SKIP LOCKED` and hold them under a lease that a dead process stops renewing.
 *
 * Invariants held by PostgreSQL, not only by the code:
 * - a job is running exactly when it holds a lease (owner and expiry both set), and never otherwise;
 * - a finished job (completed or dead) carries its finish time, an unfinished one does not;
 * - attempts never exceed max_attempts;
 * - at most one pending or running job per dedup key (partial unique index), which makes recurring
 *   housekeeping a singleton across replicas.
 */
export class Jobs1764200000000 implements MigrationInterface {
  name = 'Jobs1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE jobs (
        job_id       bigint       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        queue        varchar(64)  NOT NULL DEFAULT 'default' CHECK (queue ~ '^[a-z][a-z0-9_.-]{0,63}$'),
        name         varchar(100) NOT NULL CHECK (name ~ '^[a-z][a-z0-9_.:-]{0,99}$'),
        payload      jsonb        NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(payload) = 'object'),
        dedup_key    varchar(200) NULL CHECK (dedup_key <> ''),
        state        varchar(16)  NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'completed', 'dead')),
        attempts     integer      NOT NULL DEFAULT 0,
        max_attempts integer      NOT NULL CHECK (max_attempts BETWEEN 1 AND 100),
        run_at       timestamptz  NOT NULL DEFAULT clock_timestamp(),
        locked_by    varchar(100) NULL,
        locked_until timestamptz  NULL,
        last_error   text         NULL,
        created_at   timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        started_at   timestamptz  NULL,
        finished_at  timestamptz  NULL,
        CHECK (attempts BETWEEN 0 AND max_attempts),
        CHECK ((state = 'running') = (locked_by IS NOT NULL)),
        CHECK ((state = 'running') = (locked_until IS NOT NULL)),
        CHECK ((state IN ('completed', 'dead')) = (finished_at IS NOT NULL))
      )
    `);
    // The claim scan: pending jobs in run_at order, read in index order up to the first due ones (queue and name
    // are filters: a leading queue column with `queue = ANY(...)` would force a full sort of the backlog).
    await queryRunner.query(`CREATE INDEX jobs_due_idx ON jobs (run_at, job_id) WHERE state = 'pending'`);
    // The lease reaper: running jobs by lease expiry.
    await queryRunner.query(`CREATE INDEX jobs_lease_idx ON jobs (locked_until) WHERE state = 'running'`);
    // Retention of finished jobs.
    await queryRunner.query(`CREATE INDEX jobs_finished_idx ON jobs (finished_at) WHERE state IN ('completed', 'dead')`);
    await queryRunner.query(`CREATE UNIQUE INDEX jobs_dedup_key ON jobs (dedup_key) WHERE state IN ('pending', 'running')`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE jobs`);
  }
}
