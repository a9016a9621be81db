import { MigrationInterface, QueryRunner } from 'typeorm';
import { immutableVersionsSql } from '../../shared/versioning/version-store';

/**
 * E-mail templates of a tenant and their immutable versions (numbered per template), with the pointer to the
 * active version `email-action` nodes send. A version is `draft`, `released` or `deprecated`; only its status
 * and the release/deprecation times ever change, and versions are never deleted.
 */
export class EmailTemplates1765000000000 implements MigrationInterface {
  name = 'EmailTemplates1765000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email_templates (
        email_template_id uuid            PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id         uuid            NOT NULL REFERENCES tenants (tenant_id),
        key               varchar(64)     NOT NULL CHECK (key ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
        name              varchar(200)    NOT NULL CHECK (btrim(name) <> ''),
        description       varchar(500)    NOT NULL DEFAULT '',
        active_version_id uuid            NULL,
        lock_version      integer         NOT NULL DEFAULT 1 CHECK (lock_version >= 1),
        created_at        timestamptz(3)  NOT NULL DEFAULT clock_timestamp(),
        updated_at        timestamptz(3)  NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT email_templates_tenant_id_key_key UNIQUE (tenant_id, key),
        UNIQUE (tenant_id, email_template_id)
      )
    `);
    await queryRunner.query(`CREATE INDEX email_templates_page_idx ON email_templates (tenant_id, created_at, email_template_id)`);

    await queryRunner.query(`
      CREATE TABLE email_template_versions (
        email_template_version_id uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        email_template_id         uuid           NOT NULL,
        tenant_id                 uuid           NOT NULL,
        version_number            integer        NOT NULL CHECK (version_number >= 1),
        status                    varchar(16)    NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'released', 'deprecated')),
        subject                   varchar(200)   NOT NULL CHECK (char_length(subject) >= 1),
        body_text                 varchar(20000) NOT NULL CHECK (char_length(body_text) >= 1),
        body_html                 text           NULL CHECK (char_length(body_html) <= 100000),
        created_at                timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        released_at               timestamptz(3) NULL,
        deprecated_at             timestamptz(3) NULL,
        FOREIGN KEY (tenant_id, email_template_id) REFERENCES email_templates (tenant_id, email_template_id),
        CONSTRAINT email_template_versions_email_template_id_version_number_key UNIQUE (email_template_id, version_number),
        UNIQUE (email_template_id, email_template_version_id),
        -- The release stamps releasedAt, the deprecation its time, as the status moves.
        CHECK (status = 'draft' OR released_at IS NOT NULL),
        CHECK ((status = 'deprecated') = (deprecated_at IS NOT NULL))
      )
    `);
    await queryRunner.query(`CREATE INDEX email_template_versions_page_idx ON email_template_versions (email_template_id, version_number)`);
    await queryRunner.query(immutableVersionsSql('email_template_versions', ['status', 'released_at', 'deprecated_at']));
    // The active version belongs to the same template; deferrable so a template and its pointer can move in one transaction.
    await queryRunner.query(`
      ALTER TABLE email_templates ADD CONSTRAINT email_templates_active_version_fkey
        FOREIGN KEY (email_template_id, active_version_id) REFERENCES email_template_versions (email_template_id, email_template_version_id)
        DEFERRABLE INITIALLY DEFERRED
    `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE email_templates DROP CONSTRAINT email_templates_active_version_fkey`);
    await queryRunner.query(`DROP TABLE email_template_versions`);
    await queryRunner.query(`DROP FUNCTION email_template_versions_immutable()`);
    await queryRunner.query(`DROP TABLE email_templates`);
  }
}
