import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ingestion, front half: credentials that network servers present, the durable raw store every accepted
 * uplink is committed to before it is acknowledged, and the 24 h dedup window.
 *
 * Dedup lives in its own small table keyed by (dedup_scope, dedup_key) with an expiry, not as a unique index on
 * the raw table: the window is exactly 24 h (an expired key is taken over by the next message in the same
 * statement, `ON CONFLICT ... DO UPDATE ... WHERE expires_at <= now()`), the raw table's retention can drop old
 * rows (or partitions) without touching dedup, and a unique index on a huge, time-partitioned raw table would
 * have to include the partition key. Expired keys are overwritten on reuse; purging the rest belongs to retention.
 *
 * Invariants held by PostgreSQL:
 * - a tenant credential names its tenant, a platform credential none; revoked exactly when revoked_at is set;
 * - a raw row's status reason pairs are the known outcomes; `pending` carries no reason;
 * - the stored body is the request's exact bytes and size_bytes is its length.
 *
 * correlation_id is the ingest request's (X-Correlation-Id or generated), carried on to the executions it causes.
 */
export class Ingestion1764700000000 implements MigrationInterface {
  name = 'Ingestion1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE ingestion_credentials (
        ingestion_credential_id uuid          PRIMARY KEY DEFAULT gen_random_uuid(),
        scope                   varchar(16)   NOT NULL CHECK (scope IN ('tenant', 'platform')),
        tenant_id               uuid          NULL REFERENCES tenants (tenant_id),
        name                    varchar(200)  NOT NULL CHECK (name <> ''),
        token_sha256            bytea         NOT NULL CHECK (octet_length(token_sha256) = 32),
        token_prefix            varchar(12)   NOT NULL CHECK (char_length(token_prefix) = 12),
        status                  varchar(16)   NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
        last_used_at            timestamptz(3) NULL,
        created_at              timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        revoked_at              timestamptz(3) NULL,
        created_by              uuid          NULL REFERENCES users (user_id),
        CONSTRAINT ingestion_credentials_token_unique UNIQUE (token_sha256),
        CHECK ((scope = 'tenant') = (tenant_id IS NOT NULL)),
        CHECK ((status = 'revoked') = (revoked_at IS NOT NULL))
      )
    `);
    await queryRunner.query(`CREATE INDEX ingestion_credentials_list ON ingestion_credentials (created_at, ingestion_credential_id)`);
    await queryRunner.query(
      `CREATE INDEX ingestion_credentials_tenant ON ingestion_credentials (tenant_id, created_at, ingestion_credential_id) WHERE tenant_id IS NOT NULL`,
    );

    await queryRunner.query(`
      CREATE TABLE raw_ingestion_messages (
        raw_ingestion_message_id uuid          PRIMARY KEY,
        received_at              timestamptz(3) NOT NULL,
        source                   varchar(16)   NOT NULL CHECK (source IN ('chirpstack', 'tts', 'http', 'mqtt')),
        event                    varchar(32)   NOT NULL CHECK (event IN ('up', 'uplink_message', 'uplink')),
        credential_id            uuid          NULL REFERENCES ingestion_credentials (ingestion_credential_id),
        tenant_id                uuid          NULL REFERENCES tenants (tenant_id),
        dedup_scope              varchar(64)   NULL,
        dedup_key                varchar(300)  NULL,
        dev_eui                  char(16)      NULL CHECK (dev_eui ~ '^[0-9A-F]{16}$'),
        observed_at              timestamptz(3) NULL,
        raw_payload              jsonb         NULL CHECK (raw_payload IS NULL OR jsonb_typeof(raw_payload) = 'object'),
        connection_data          jsonb         NULL CHECK (connection_data IS NULL OR jsonb_typeof(connection_data) = 'object'),
        correlation_id           varchar(128)  NULL,
        content_type             varchar(200)  NOT NULL,
        body                     bytea         NOT NULL,
        size_bytes               integer       NOT NULL,
        processing_status        varchar(16)   NOT NULL DEFAULT 'pending'
                                 CHECK (processing_status IN ('pending', 'processed', 'unrouted', 'rejected', 'skipped')),
        processing_reason        varchar(64)   NULL,
        flow_execution_id        uuid          NULL,
        device_id                uuid          NULL,
        pinned                   boolean       NOT NULL DEFAULT false,
        CHECK (size_bytes = octet_length(body)),
        CHECK ((dedup_scope IS NULL) = (dedup_key IS NULL)),
        CHECK (
          (processing_status = 'pending' AND processing_reason IS NULL)
          OR (processing_status = 'processed' AND processing_reason IS NULL)
          OR (processing_status = 'unrouted' AND processing_reason = 'unknown_dev_eui')
          OR (processing_status = 'rejected' AND processing_reason IN ('tenant_mismatch', 'malformed_payload'))
          OR (processing_status = 'skipped' AND processing_reason IN
              ('device_disabled', 'device_type_disabled', 'tenant_disabled', 'no_flow', 'no_active_flow_version'))
        ),
        CHECK (processing_status <> 'pending' OR (device_id IS NULL AND flow_execution_id IS NULL))
      )
    `);
    // Workers claim pending rows in receipt order; the partial index stays as small as the backlog.
    await queryRunner.query(
      `CREATE INDEX raw_ingestion_messages_pending ON raw_ingestion_messages (received_at, raw_ingestion_message_id) WHERE processing_status = 'pending'`,
    );
    // The newest-first list and its filters (each filter narrows an index range on receipt time).
    await queryRunner.query(`CREATE INDEX raw_ingestion_messages_received ON raw_ingestion_messages (received_at DESC, raw_ingestion_message_id DESC)`);
    await queryRunner.query(`CREATE INDEX raw_ingestion_messages_tenant ON raw_ingestion_messages (tenant_id, received_at DESC) WHERE tenant_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX raw_ingestion_messages_device ON raw_ingestion_messages (device_id, received_at DESC) WHERE device_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX raw_ingestion_messages_dev_eui ON raw_ingestion_messages (dev_eui, received_at DESC) WHERE dev_eui IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX raw_ingestion_messages_credential ON raw_ingestion_messages (credential_id, received_at DESC)`);

    await queryRunner.query(`
      CREATE TABLE ingestion_dedup_keys (
        dedup_scope              varchar(64)   NOT NULL,
        dedup_key                varchar(300)  NOT NULL,
        raw_ingestion_message_id uuid          NOT NULL,
        raw_received_at          timestamptz(3) NOT NULL,
        expires_at               timestamptz   NOT NULL,
        PRIMARY KEY (dedup_scope, dedup_key)
      )
    `);
    await queryRunner.query(`CREATE INDEX ingestion_dedup_keys_expiry ON ingestion_dedup_keys (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ingestion_dedup_keys`);
    await queryRunner.query(`DROP TABLE raw_ingestion_messages`);
    await queryRunner.query(`DROP TABLE ingestion_credentials`);
  }
}
