import { MigrationInterface, QueryRunner } from 'typeorm';
import { immutableVersionsSql } from '../../shared/versioning/version-store';

/**
 * Custom script blocks and their immutable versions.
 *
 * Invariants held by PostgreSQL:
 * - a block is global (no tenant) or belongs to one tenant, never both (CHECK);
 * - a key is unique among the global blocks and unique within each tenant (two partial unique indexes);
 * - versions are numbered 1..n per block (unique), live in their block's tenant (composite foreign key) and never
 *   change after creation except for their status and its timestamps (trigger); a released version has its
 *   artifact, gate report and contract (CHECKs).
 */
export class FlowBlocks1764500000000 implements MigrationInterface {
  name = 'FlowBlocks1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE flow_blocks (
        flow_block_id uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        scope         varchar(8)     NOT NULL CHECK (scope IN ('global', 'tenant')),
        tenant_id     uuid           NULL REFERENCES tenants (tenant_id),
        key           varchar(128)   NOT NULL CHECK (key ~ '^[a-z0-9][a-z0-9._-]{0,127}$'),
        name          varchar(200)   NOT NULL CHECK (btrim(name) <> ''),
        description   varchar(500)   NOT NULL DEFAULT '',
        created_at    timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at    timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT flow_blocks_scope_tenant_check CHECK ((scope = 'global') = (tenant_id IS NULL)),
        UNIQUE (flow_block_id, tenant_id)
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX flow_blocks_global_key_key ON flow_blocks (key) WHERE tenant_id IS NULL`);
    await queryRunner.query(`CREATE UNIQUE INDEX flow_blocks_tenant_key_key ON flow_blocks (tenant_id, key) WHERE tenant_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX flow_blocks_page_idx ON flow_blocks (tenant_id, created_at, flow_block_id)`);

    await queryRunner.query(`
      CREATE TABLE flow_block_versions (
        flow_block_version_id uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        flow_block_id         uuid           NOT NULL,
        tenant_id             uuid           NULL,
        version_number        integer        NOT NULL CHECK (version_number >= 1),
        status                varchar(16)    NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'released', 'deprecated')),
        script_contract       varchar(16)    NULL CHECK (script_contract IN ('transform', 'decodeUplink', 'Decode')),
        source_code           text           NOT NULL CHECK (char_length(source_code) BETWEEN 1 AND 102400),
        source_sha256         char(64)       NOT NULL CHECK (source_sha256 ~ '^[0-9a-f]{64}$'),
        configuration_schema  jsonb          NULL,
        sample_input          jsonb          NOT NULL,
        notes                 varchar(2000)  NOT NULL DEFAULT '',
        artifact              jsonb          NULL,
        gate_report           jsonb          NULL,
        created_at            timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        released_at           timestamptz(3) NULL,
        deprecated_at         timestamptz(3) NULL,
        CONSTRAINT flow_block_versions_number_key UNIQUE (flow_block_id, version_number),
        FOREIGN KEY (flow_block_id, tenant_id) REFERENCES flow_blocks (flow_block_id, tenant_id) MATCH SIMPLE,
        FOREIGN KEY (flow_block_id) REFERENCES flow_blocks (flow_block_id),
        CHECK ((status = 'draft') = (released_at IS NULL)),
        CHECK ((status = 'deprecated') = (deprecated_at IS NOT NULL)),
        CHECK (status = 'draft' OR (artifact IS NOT NULL AND gate_report IS NOT NULL AND script_contract IS NOT NULL))
      )
    `);
    await queryRunner.query(`CREATE INDEX flow_block_versions_released_idx ON flow_block_versions (flow_block_id, version_number) WHERE status = 'released'`);
    // The release stores the artifact and gate report in the same statement as the status move.
    await queryRunner.query(
      immutableVersionsSql('flow_block_versions', ['status', 'released_at', 'deprecated_at', 'artifact', 'gate_report', 'script_contract']),
    );
    // ...and only that move may set them: a released or deprecated version keeps what its gates recorded.
    await queryRunner.query(`
      CREATE FUNCTION flow_block_versions_release_record() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF (NEW.artifact, NEW.gate_report, NEW.script_contract) IS DISTINCT FROM (OLD.artifact, OLD.gate_report, OLD.script_contract)
           AND NOT (OLD.status = 'draft' AND NEW.status = 'released') THEN
          RAISE EXCEPTION 'the release record of a block version is set only by its release'
            USING ERRCODE = 'integrity_constraint_violation', CONSTRAINT = 'flow_block_versions_immutable';
        END IF;
        RETURN NEW;
      END
      $fn$;
      CREATE TRIGGER flow_block_versions_release_record BEFORE UPDATE ON flow_block_versions
        FOR EACH ROW EXECUTE FUNCTION flow_block_versions_release_record();
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE flow_block_versions`);
    await queryRunner.query(`DROP FUNCTION flow_block_versions_release_record()`);
    await queryRunner.query(`DROP FUNCTION flow_block_versions_immutable()`);
    await queryRunner.query(`DROP TABLE flow_blocks`);
  }
}
