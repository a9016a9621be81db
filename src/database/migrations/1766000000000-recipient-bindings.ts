import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who an e-mail template's messages go to: a tenant member (`user`, addressed at the user's current e-mail) or a
 * plain address (`email`), optionally narrowed to one device type and to one unit (with or without the units below
 * it). Bindings are disabled, never deleted.
 *
 * Duplicate rule (`recipient_bindings_active_key`, answered as `duplicate_binding`): among the template's active
 * bindings, at most one per (recipient, device type, unit), where the recipient is the user, or the address compared
 * in lower case, and a missing device type or unit counts as a value of its own ("any"); `includeDescendants` is
 * not part of the key, so two bindings differing only in it are one duplicate.
 */
export class RecipientBindings1766000000000 implements MigrationInterface {
  name = 'RecipientBindings1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE recipient_bindings (
        recipient_binding_id uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id            uuid           NOT NULL REFERENCES tenants (tenant_id),
        email_template_id    uuid           NOT NULL,
        recipient_type       varchar(8)     NOT NULL CHECK (recipient_type IN ('user', 'email')),
        user_id              uuid           NULL REFERENCES users (user_id),
        email                varchar(254)   NULL CHECK (email ~ '^[^@\\s]+@[^@\\s]+$'),
        device_type_id       uuid           NULL,
        organization_unit_id uuid           NULL,
        include_descendants  boolean        NOT NULL DEFAULT true,
        status               varchar(16)    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        created_at           timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at           timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        FOREIGN KEY (tenant_id, email_template_id) REFERENCES email_templates (tenant_id, email_template_id),
        FOREIGN KEY (tenant_id, device_type_id) REFERENCES device_types (tenant_id, device_type_id),
        FOREIGN KEY (tenant_id, organization_unit_id) REFERENCES organization_units (tenant_id, organization_unit_id),
        -- A user binding names the user (its address is the user's current one), an address binding the address.
        CONSTRAINT recipient_bindings_recipient_check CHECK (
          (recipient_type = 'user' AND user_id IS NOT NULL AND email IS NULL) OR
          (recipient_type = 'email' AND email IS NOT NULL AND user_id IS NULL))
      )
    `);
    await queryRunner.query(`
      CREATE UNIQUE INDEX recipient_bindings_active_key ON recipient_bindings
        (email_template_id, user_id, lower(email), device_type_id, organization_unit_id) NULLS NOT DISTINCT
        WHERE status = 'active'
    `);
    await queryRunner.query(`CREATE INDEX recipient_bindings_page_idx ON recipient_bindings (tenant_id, created_at, recipient_binding_id)`);
    // Send time reads a template's active bindings.
    await queryRunner.query(`CREATE INDEX recipient_bindings_template_idx ON recipient_bindings (email_template_id) WHERE status = 'active'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE recipient_bindings`);
  }
}
