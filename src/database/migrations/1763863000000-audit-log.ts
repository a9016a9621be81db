import { MigrationInterface, QueryRunner } from 'typeorm';

export class AuditLog1763863000000 implements MigrationInterface {
  name = 'AuditLog1763863000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // tenant_id gets its foreign key when the tenants table exists (tenancy migration).
    await queryRunner.query(`
      CREATE TABLE audit_log (
        audit_log_id   uuid         PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id      uuid         NULL,
        event_type     varchar(100) NOT NULL CHECK (event_type ~ '^[a-z][a-z_]*\\.[a-z][a-z_]*$'),
        actor_type     varchar(16)  NOT NULL CHECK (actor_type IN ('user', 'system', 'import', 'anonymous')),
        actor_id       varchar(64)  NOT NULL CHECK (actor_id <> ''),
        action         varchar(64)  NOT NULL CHECK (action ~ '^[a-z][a-z_]*$'),
        entity_type    varchar(64)  NOT NULL CHECK (entity_type ~ '^[a-z][a-z_]*$'),
        entity_id      varchar(200) NULL,
        outcome        varchar(16)  NOT NULL CHECK (outcome IN ('success', 'denied', 'failure')),
        occurred_at    timestamptz  NOT NULL DEFAULT clock_timestamp(),
        correlation_id varchar(128) NOT NULL CHECK (correlation_id <> ''),
        method         varchar(16)  NULL,
        route          varchar(300) NULL,
        status_code    integer      NULL CHECK (status_code BETWEEN 100 AND 599),
        metadata       jsonb        NOT NULL DEFAULT '{}'::jsonb
                       CHECK (jsonb_typeof(metadata) = 'object' AND octet_length(metadata::text) <= 8192)
      )
    `);
    // Newest-first pages: per tenant (tenant audit query) and global (platform admin query).
    await queryRunner.query(
      `CREATE INDEX audit_log_tenant_newest_idx ON audit_log (tenant_id, occurred_at DESC, audit_log_id DESC) WHERE tenant_id IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX audit_log_newest_idx ON audit_log (occurred_at DESC, audit_log_id DESC)`);
    await queryRunner.query(`CREATE INDEX audit_log_correlation_idx ON audit_log (correlation_id)`);
    // The log is append-only: no code path may rewrite or drop what happened.
    await queryRunner.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
      END $$
    `);
    await queryRunner.query(`
      CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE audit_log`);
    await queryRunner.query(`DROP FUNCTION audit_log_append_only()`);
  }
}
