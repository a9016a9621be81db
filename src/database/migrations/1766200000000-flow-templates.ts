import { MigrationInterface, QueryRunner } from 'typeorm';
import { immutableVersionsSql } from '../../shared/versioning/version-store';

/**
 * Flow templates: global, versioned starting points for flows (no tenant, no device type), and the provenance of a
 * flow version copied from one.
 *
 * Invariants held by PostgreSQL:
 * - a template key is unique (platform-wide) and follows the custom block key rule;
 * - versions are numbered 1..n per template (unique) and never change after creation except for their status and
 *   what the release records with it (checksum, required fields, timestamps) (trigger);
 * - a released version has its checksum and required fields;
 * - a flow version copied from a template names the template, the version and its number, all three or none, and
 *   the version belongs to the template (composite foreign key).
 */
export class FlowTemplates1766200000000 implements MigrationInterface {
  name = 'FlowTemplates1766200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE flow_templates (
        flow_template_id uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        key              varchar(128)   NOT NULL CHECK (key ~ '^[a-z0-9][a-z0-9._-]{0,127}$'),
        name             varchar(200)   NOT NULL CHECK (btrim(name) <> ''),
        description      varchar(500)   NOT NULL DEFAULT '',
        created_at       timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at       timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT flow_templates_key_key UNIQUE (key)
      )
    `);
    await queryRunner.query(`CREATE INDEX flow_templates_page_idx ON flow_templates (created_at, flow_template_id)`);

    await queryRunner.query(`
      CREATE TABLE flow_template_versions (
        flow_template_version_id uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        flow_template_id         uuid           NOT NULL REFERENCES flow_templates (flow_template_id),
        version_number           integer        NOT NULL CHECK (version_number >= 1),
        status                   varchar(16)    NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'released', 'deprecated')),
        graph                    jsonb          NOT NULL CHECK (jsonb_typeof(graph) = 'object' AND graph -> 'deviceTypeId' = 'null'::jsonb),
        parameters               jsonb          NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(parameters) = 'array'),
        checksum                 varchar(64)    NULL CHECK (checksum ~ '^[0-9a-f]{64}$'),
        required_fields          jsonb          NULL CHECK (jsonb_typeof(required_fields) = 'array'),
        released_at              timestamptz(3) NULL,
        deprecated_at            timestamptz(3) NULL,
        created_at               timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT flow_template_versions_number_key UNIQUE (flow_template_id, version_number),
        UNIQUE (flow_template_id, flow_template_version_id, version_number),
        CHECK (status = 'draft' OR (released_at IS NOT NULL AND checksum IS NOT NULL AND required_fields IS NOT NULL)),
        CHECK (status <> 'deprecated' OR deprecated_at IS NOT NULL)
      )
    `);
    await queryRunner.query(
      `CREATE INDEX flow_template_versions_released_idx ON flow_template_versions (flow_template_id, version_number) WHERE status = 'released'`,
    );
    await queryRunner.query(immutableVersionsSql('flow_template_versions', ['status', 'checksum', 'required_fields', 'released_at', 'deprecated_at']));

    // Flow versions are immutable (their trigger compares whole rows), so the provenance is set by the INSERT only.
    await queryRunner.query(`
      ALTER TABLE flow_versions
        ADD COLUMN source_flow_template_id         uuid    NULL,
        ADD COLUMN source_flow_template_version_id uuid    NULL,
        ADD COLUMN source_template_version_number  integer NULL,
        ADD CONSTRAINT flow_versions_source_template_fkey
          FOREIGN KEY (source_flow_template_id, source_flow_template_version_id, source_template_version_number)
          REFERENCES flow_template_versions (flow_template_id, flow_template_version_id, version_number),
        ADD CONSTRAINT flow_versions_source_template_check CHECK (
          (source_flow_template_id IS NULL) = (source_flow_template_version_id IS NULL)
          AND (source_flow_template_id IS NULL) = (source_template_version_number IS NULL)
        )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE flow_versions DROP CONSTRAINT flow_versions_source_template_check, DROP CONSTRAINT flow_versions_source_template_fkey,
        DROP COLUMN source_template_version_number, DROP COLUMN source_flow_template_version_id, DROP COLUMN source_flow_template_id
    `);
    await queryRunner.query(`DROP TABLE flow_template_versions`);
    await queryRunner.query(`DROP FUNCTION flow_template_versions_immutable()`);
    await queryRunner.query(`DROP TABLE flow_templates`);
  }
}
