import { MigrationInterface, QueryRunner } from 'typeorm';
import { immutableVersionsSql } from '../../shared/versioning/version-store';

/**
 * Telemetry flows: one flow per device type, its immutable graph versions (numbered by the VersionStore under the
 * flow's row lock), the test fixtures of a flow and the parameter overrides of a tenant.
 */
export class Flows1764600000000 implements MigrationInterface {
  name = 'Flows1764600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE flows (
        flow_id           uuid            PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id         uuid            NOT NULL REFERENCES tenants (tenant_id),
        device_type_id    uuid            NOT NULL,
        key               varchar(64)     NOT NULL CHECK (key ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
        name              varchar(200)    NOT NULL CHECK (btrim(name) <> ''),
        description       varchar(500)    NOT NULL DEFAULT '',
        lock_version      integer         NOT NULL DEFAULT 1 CHECK (lock_version >= 1),
        active_version_id uuid            NULL,
        created_at        timestamptz(3)  NOT NULL DEFAULT clock_timestamp(),
        updated_at        timestamptz(3)  NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (tenant_id, device_type_id) REFERENCES device_types (tenant_id, device_type_id),
        -- A device type has at most one flow.
        CONSTRAINT flows_device_type_id_key UNIQUE (device_type_id),
        CONSTRAINT flows_tenant_id_key_key UNIQUE (tenant_id, key),
        UNIQUE (tenant_id, flow_id)
      )
    `);
    await queryRunner.query(`CREATE INDEX flows_page_idx ON flows (tenant_id, created_at, flow_id)`);

    await queryRunner.query(`
      CREATE TABLE flow_versions (
        flow_version_id uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        flow_id         uuid           NOT NULL,
        tenant_id       uuid           NOT NULL,
        version_number  integer        NOT NULL CHECK (version_number >= 1),
        status          varchar(16)    NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'released', 'deprecated')),
        graph           jsonb          NOT NULL CHECK (jsonb_typeof(graph) = 'object'),
        parameters      jsonb          NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(parameters) = 'array'),
        checksum        varchar(64)    NULL CHECK (checksum ~ '^[0-9a-f]{64}$'),
        released_at     timestamptz(3) NULL,
        deprecated_at   timestamptz(3) NULL,
        created_at      timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (tenant_id, flow_id) REFERENCES flows (tenant_id, flow_id),
        CONSTRAINT flow_versions_flow_id_version_number_key UNIQUE (flow_id, version_number),
        UNIQUE (flow_id, flow_version_id),
        -- The release stamps checksum and releasedAt just before the status moves, the deprecation its time.
        CHECK (status = 'draft' OR (released_at IS NOT NULL AND checksum IS NOT NULL)),
        CHECK (status <> 'deprecated' OR deprecated_at IS NOT NULL)
      )
    `);
    await queryRunner.query(immutableVersionsSql('flow_versions', ['status', 'checksum', 'released_at', 'deprecated_at']));
    // The active version belongs to the same flow; deferrable so a flow and its pointer can move in one transaction.
    await queryRunner.query(`
      ALTER TABLE flows ADD CONSTRAINT flows_active_version_fkey
        FOREIGN KEY (flow_id, active_version_id) REFERENCES flow_versions (flow_id, flow_version_id)
        DEFERRABLE INITIALLY DEFERRED
    `);

    await queryRunner.query(`
      CREATE TABLE flow_fixtures (
        fixture_id                uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id                 uuid           NOT NULL,
        flow_id                   uuid           NOT NULL,
        name                      varchar(200)   NULL CHECK (btrim(name) <> ''),
        input                     jsonb          NOT NULL CHECK (jsonb_typeof(input) = 'object'),
        raw_ingestion_message_id  uuid           NULL,
        raw_received_at           timestamptz(3) NULL,
        raw_retention_extended    boolean        NOT NULL DEFAULT false,
        assertions                jsonb          NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(assertions) = 'array' AND jsonb_array_length(assertions) <= 50),
        lock_version              integer        NOT NULL DEFAULT 1 CHECK (lock_version >= 1),
        created_at                timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at                timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (tenant_id, flow_id) REFERENCES flows (tenant_id, flow_id),
        CHECK ((raw_ingestion_message_id IS NULL) = (raw_received_at IS NULL))
      )
    `);
    await queryRunner.query(`CREATE INDEX flow_fixtures_page_idx ON flow_fixtures (flow_id, created_at, fixture_id)`);

    await queryRunner.query(`
      CREATE TABLE flow_parameter_overrides (
        parameter_override_id uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id             uuid           NOT NULL REFERENCES tenants (tenant_id),
        level                 varchar(16)    NOT NULL CHECK (level IN ('tenant', 'device_type', 'device')),
        device_type_id        uuid           NULL,
        device_id             uuid           NULL,
        key                   varchar(64)    NOT NULL CHECK (key ~ '^[a-zA-Z][a-zA-Z0-9_]{0,63}$'),
        value                 jsonb          NOT NULL,
        created_at            timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at            timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (tenant_id, device_type_id) REFERENCES device_types (tenant_id, device_type_id),
        FOREIGN KEY (tenant_id, device_id) REFERENCES devices (tenant_id, device_id),
        CHECK (
          (level = 'tenant' AND device_type_id IS NULL AND device_id IS NULL)
          OR (level = 'device_type' AND device_type_id IS NOT NULL AND device_id IS NULL)
          OR (level = 'device' AND device_type_id IS NOT NULL AND device_id IS NOT NULL)
        ),
        CONSTRAINT flow_parameter_overrides_target_key UNIQUE NULLS NOT DISTINCT (tenant_id, level, device_type_id, device_id, key)
      )
    `);
    await queryRunner.query(`CREATE INDEX flow_parameter_overrides_page_idx ON flow_parameter_overrides (tenant_id, created_at, parameter_override_id)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE flow_parameter_overrides`);
    await queryRunner.query(`DROP TABLE flow_fixtures`);
    await queryRunner.query(`ALTER TABLE flows DROP CONSTRAINT flows_active_version_fkey`);
    await queryRunner.query(`DROP TABLE flow_versions`);
    await queryRunner.query(`DROP FUNCTION flow_versions_immutable()`);
    await queryRunner.query(`DROP TABLE flows`);
  }
}
