import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ingestion, back half: what processing a raw message leaves behind.
 *
 * - flow_executions: one row per live or replayed raw message (there is one per uplink, so the row is kept small:
 *   the trace is stored compact, see ExecutionTrace, and the input is rebuilt from the raw message on read; only
 *   the resolved parameters are stored). No foreign key to devices or raw messages: retention drops raw messages
 *   and executions on their own schedules, and an execution outlives neither check. The version reference holds
 *   (versions are never deleted).
 * - flow_replays: a replay request and its progress; at most one unfinished (queued or running) replay per flow,
 *   held by a partial unique index. `resume_after` is the (observedAt, rawReceivedAt, id) of the last message
 *   whose results are committed: a replay taken over after a crash continues after it, never repeats or skips.
 * - flow_action_requests: e-mail requested by `email-action` nodes of live executions, written in the
 *   execution's transaction (an outbox): delivery reads them later and never sees a request of a rolled-back run.
 */
export class Processing1764800000000 implements MigrationInterface {
  name = 'Processing1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE flow_replays (
        replay_id          uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id          uuid           NOT NULL,
        flow_id            uuid           NOT NULL,
        flow_version_id    uuid           NOT NULL,
        compared_with_version_id uuid     NULL,
        range_from         timestamptz(3) NOT NULL,
        range_to           timestamptz(3) NOT NULL,
        device_ids         uuid[]         NULL CHECK (device_ids IS NULL OR cardinality(device_ids) BETWEEN 1 AND 100),
        dry_run            boolean        NOT NULL,
        status             varchar(16)    NOT NULL DEFAULT 'queued'
                           CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        total_messages     integer        NULL CHECK (total_messages >= 0),
        processed_messages integer        NOT NULL DEFAULT 0 CHECK (processed_messages >= 0),
        succeeded          integer        NOT NULL DEFAULT 0 CHECK (succeeded >= 0),
        failed             integer        NOT NULL DEFAULT 0 CHECK (failed >= 0),
        filtered           integer        NOT NULL DEFAULT 0 CHECK (filtered >= 0),
        error              jsonb          NULL,
        diff               jsonb          NULL,
        resume_after       jsonb          NULL,
        requested_by       uuid           NULL REFERENCES users (user_id),
        created_at         timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        started_at         timestamptz(3) NULL,
        finished_at        timestamptz(3) NULL,
        FOREIGN KEY (tenant_id, flow_id) REFERENCES flows (tenant_id, flow_id),
        FOREIGN KEY (flow_id, flow_version_id) REFERENCES flow_versions (flow_id, flow_version_id),
        CHECK (range_from < range_to AND range_to <= range_from + interval '31 days'),
        CHECK (succeeded + failed + filtered = processed_messages),
        CHECK ((status IN ('succeeded', 'failed', 'cancelled')) = (finished_at IS NOT NULL)),
        CHECK ((status = 'failed') = (error IS NOT NULL)),
        CHECK (status = 'queued' OR started_at IS NOT NULL OR status = 'cancelled')
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX flow_replays_one_unfinished ON flow_replays (flow_id) WHERE status IN ('queued', 'running')`);
    await queryRunner.query(`CREATE INDEX flow_replays_page_idx ON flow_replays (flow_id, created_at DESC, replay_id DESC)`);

    await queryRunner.query(`
      CREATE TABLE flow_executions (
        flow_execution_id        uuid           PRIMARY KEY,
        tenant_id                uuid           NOT NULL,
        flow_id                  uuid           NOT NULL,
        flow_version_id          uuid           NOT NULL,
        version_number           integer        NOT NULL CHECK (version_number >= 1),
        device_id                uuid           NOT NULL,
        mode                     varchar(8)     NOT NULL CHECK (mode IN ('live', 'replay')),
        replay_id                uuid           NULL REFERENCES flow_replays (replay_id),
        raw_ingestion_message_id uuid           NULL,
        raw_received_at          timestamptz(3) NOT NULL,
        observed_at              timestamptz(3) NOT NULL,
        correlation_id           varchar(128)   NOT NULL,
        status                   varchar(16)    NOT NULL CHECK (status IN ('succeeded', 'failed', 'filtered')),
        started_at               timestamptz(3) NOT NULL,
        duration_ms              real           NOT NULL CHECK (duration_ms >= 0),
        error                    jsonb          NULL,
        parameters               jsonb          NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(parameters) = 'object'),
        current                  jsonb          NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(current) = 'object'),
        timeseries               jsonb          NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(timeseries) = 'object'),
        actions                  jsonb          NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(actions) = 'array'),
        trace                    jsonb          NOT NULL CHECK (jsonb_typeof(trace) = 'array'),
        FOREIGN KEY (flow_id, flow_version_id) REFERENCES flow_versions (flow_id, flow_version_id),
        CHECK ((mode = 'replay') = (replay_id IS NOT NULL)),
        CHECK ((status = 'failed') = (error IS NOT NULL))
      )
    `);
    // Newest first per flow, and the filters that narrow it; retention walks started_at.
    await queryRunner.query(`CREATE INDEX flow_executions_page_idx ON flow_executions (flow_id, started_at DESC, flow_execution_id DESC)`);
    await queryRunner.query(`CREATE INDEX flow_executions_device_idx ON flow_executions (flow_id, device_id, started_at DESC)`);
    await queryRunner.query(`CREATE INDEX flow_executions_replay_idx ON flow_executions (replay_id) WHERE replay_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX flow_executions_correlation_idx ON flow_executions (correlation_id)`);
    await queryRunner.query(`CREATE INDEX flow_executions_retention_idx ON flow_executions (started_at)`);

    await queryRunner.query(`
      CREATE TABLE flow_action_requests (
        action_request_id  uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id          uuid           NOT NULL REFERENCES tenants (tenant_id),
        flow_id            uuid           NOT NULL,
        flow_execution_id  uuid           NOT NULL REFERENCES flow_executions (flow_execution_id) ON DELETE CASCADE,
        node_id            varchar(120)   NOT NULL,
        email_template_id  uuid           NOT NULL,
        device_id          uuid           NOT NULL,
        status             varchar(16)    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done')),
        created_at         timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      )
    `);
    await queryRunner.query(`CREATE INDEX flow_action_requests_pending ON flow_action_requests (created_at) WHERE status = 'pending'`);

    // Receipt order. received_at is the arrival time on one replica's clock, and rows of two replicas can commit in
    // the opposite order of their arrival, so processing follows receipt_seq instead: assigned by the INSERT in
    // batch order while the writer holds a transaction lock per devEui, so a message of a device always gets a
    // higher number than, and becomes visible after, every earlier stored message of that device.
    await queryRunner.query(`ALTER TABLE raw_ingestion_messages ADD COLUMN receipt_seq bigint GENERATED ALWAYS AS IDENTITY`);
    await queryRunner.query(`DROP INDEX raw_ingestion_messages_pending`);
    await queryRunner.query(`CREATE INDEX raw_ingestion_messages_pending ON raw_ingestion_messages (receipt_seq) WHERE processing_status = 'pending'`);
    // "Is an earlier message of this devEui still pending?" for every claimed message.
    await queryRunner.query(
      `CREATE INDEX raw_ingestion_messages_pending_dev_eui ON raw_ingestion_messages (dev_eui, receipt_seq) WHERE processing_status = 'pending'`,
    );
    // Replays read a flow's device type's messages by device and observedAt.
    await queryRunner.query(
      `CREATE INDEX raw_ingestion_messages_replay ON raw_ingestion_messages (device_id, observed_at, received_at) WHERE device_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX raw_ingestion_messages_replay`);
    await queryRunner.query(`DROP INDEX raw_ingestion_messages_pending_dev_eui`);
    await queryRunner.query(`DROP INDEX raw_ingestion_messages_pending`);
    await queryRunner.query(`ALTER TABLE raw_ingestion_messages DROP COLUMN receipt_seq`);
    await queryRunner.query(
      `CREATE INDEX raw_ingestion_messages_pending ON raw_ingestion_messages (received_at, raw_ingestion_message_id) WHERE processing_status = 'pending'`,
    );
    await queryRunner.query(`DROP TABLE flow_action_requests`);
    await queryRunner.query(`DROP TABLE flow_executions`);
    await queryRunner.query(`DROP TABLE flow_replays`);
  }
}
