import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenants, the organization-unit tree and membership grants.
 *
 * The tree is stored as a materialized path: `ancestor_ids` lists a unit's ancestors root first (self excluded),
 * so "all descendants of X" is `ancestor_ids @> ARRAY[X]` and "is X inside a set S" is `id = ANY(S) OR
 * ancestor_ids && S`, both single GIN-indexed predicates. Units are never re-parented, so paths
 * never change.
 */
export class Tenancy1763950000000 implements MigrationInterface {
  name = 'Tenancy1763950000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE tenant_number_seq AS integer MINVALUE 1 START 1`);
    await queryRunner.query(`
      CREATE TABLE tenants (
        tenant_id     uuid         PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_number integer      NOT NULL UNIQUE DEFAULT nextval('tenant_number_seq') CHECK (tenant_number >= 1),
        key           varchar(64)  NOT NULL UNIQUE CHECK (key ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
        name          varchar(200) NOT NULL CHECK (btrim(name) <> ''),
        metadata      jsonb        NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
        status        varchar(16)  NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        created_at    timestamptz  NOT NULL DEFAULT clock_timestamp(),
        updated_at    timestamptz  NOT NULL DEFAULT clock_timestamp()
      )
    `);
    await queryRunner.query(`ALTER SEQUENCE tenant_number_seq OWNED BY tenants.tenant_number`);
    await queryRunner.query(`CREATE INDEX tenants_page_idx ON tenants (created_at, tenant_id)`);
    // Every tenant has its e-mail kill-switch from creation on; the actions module uses it.
    await queryRunner.query(`
      CREATE TABLE action_kill_switches (
        tenant_id          uuid         PRIMARY KEY REFERENCES tenants (tenant_id),
        state              varchar(16)  NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'paused')),
        reason             varchar(500) NULL,
        changed_at         timestamptz  NULL,
        changed_by_user_id uuid         NULL REFERENCES users (user_id)
      )
    `);

    await queryRunner.query(`
      CREATE TABLE organization_units (
        organization_unit_id        uuid         PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id                   uuid         NOT NULL REFERENCES tenants (tenant_id),
        parent_organization_unit_id uuid         NULL,
        ancestor_ids                uuid[]       NOT NULL DEFAULT '{}',
        depth                       smallint     NOT NULL CHECK (depth BETWEEN 1 AND 16),
        key                         varchar(64)  NOT NULL CHECK (key ~ '^[a-z0-9][a-z0-9._-]{0,63}$'),
        name                        varchar(200) NOT NULL CHECK (btrim(name) <> ''),
        metadata                    jsonb        NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
        status                      varchar(16)  NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        created_at                  timestamptz  NOT NULL DEFAULT clock_timestamp(),
        updated_at                  timestamptz  NOT NULL DEFAULT clock_timestamp(),
        UNIQUE (tenant_id, organization_unit_id),
        UNIQUE (tenant_id, key),
        -- A parent lives in the same tenant; the path agrees with the parent and the depth.
        FOREIGN KEY (tenant_id, parent_organization_unit_id) REFERENCES organization_units (tenant_id, organization_unit_id),
        CHECK (cardinality(ancestor_ids) = depth - 1),
        CHECK ((parent_organization_unit_id IS NULL) = (depth = 1)),
        CHECK (parent_organization_unit_id IS NULL OR ancestor_ids[cardinality(ancestor_ids)] = parent_organization_unit_id)
      )
    `);
    await queryRunner.query(`CREATE INDEX organization_units_ancestors_idx ON organization_units USING gin (ancestor_ids)`);
    await queryRunner.query(`CREATE INDEX organization_units_children_idx ON organization_units (tenant_id, parent_organization_unit_id, created_at, organization_unit_id)`);
    await queryRunner.query(`CREATE INDEX organization_units_page_idx ON organization_units (tenant_id, created_at, organization_unit_id)`);

    await queryRunner.query(`
      CREATE TABLE memberships (
        membership_id        uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id            uuid        NOT NULL REFERENCES tenants (tenant_id),
        user_id              uuid        NOT NULL REFERENCES users (user_id),
        role                 varchar(32) NOT NULL CHECK (role IN ('tenant_admin', 'tenant_operator', 'tenant_viewer')),
        organization_unit_id uuid        NULL,
        include_descendants  boolean     NOT NULL DEFAULT true,
        status               varchar(16) NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        created_at           timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at           timestamptz NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (tenant_id, organization_unit_id) REFERENCES organization_units (tenant_id, organization_unit_id)
      )
    `);
    // At most one active grant per user and target (the tenant itself, or one unit).
    await queryRunner.query(`
      CREATE UNIQUE INDEX memberships_active_target_key ON memberships
        (user_id, tenant_id, coalesce(organization_unit_id, '00000000-0000-0000-0000-000000000000'::uuid))
        WHERE status = 'active'
    `);
    await queryRunner.query(`CREATE INDEX memberships_user_idx ON memberships (user_id, tenant_id) WHERE status = 'active'`);
    await queryRunner.query(`CREATE INDEX memberships_page_idx ON memberships (tenant_id, created_at, membership_id)`);
    await queryRunner.query(`CREATE INDEX memberships_user_history_idx ON memberships (user_id, created_at, membership_id)`);

    // The audit log's tenant now has a table to point at.
    await queryRunner.query(`ALTER TABLE audit_log ADD CONSTRAINT audit_log_tenant_fk FOREIGN KEY (tenant_id) REFERENCES tenants (tenant_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE audit_log DROP CONSTRAINT audit_log_tenant_fk`);
    await queryRunner.query(`DROP TABLE memberships`);
    await queryRunner.query(`DROP TABLE organization_units`);
    await queryRunner.query(`DROP TABLE action_kill_switches`);
    await queryRunner.query(`DROP TABLE tenants`);
  }
}
