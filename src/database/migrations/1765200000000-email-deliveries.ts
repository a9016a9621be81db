import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mail deliveries (one per recipient of an `email-action` request) and the dead letters of those that could not
 * be sent. Neither references executions: both outlive execution retention and are kept 30 days after they end.
 * - email_deliveries: the delivery log and the send schedule; `attempts` holds each attempt's time and SMTP reply;
 *   `claim_token`/`claimed_until` is the lease of the worker sending it, so two workers never send one delivery.
 * - dead_letters: the rendered message and last error of a delivery that failed permanently or five times.
 */
export class EmailDeliveries1765200000000 implements MigrationInterface {
  name = 'EmailDeliveries1765200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE email_deliveries (
        email_delivery_id         uuid           PRIMARY KEY,
        tenant_id                 uuid           NOT NULL REFERENCES tenants (tenant_id),
        action_request_id         uuid           NULL,
        flow_id                   uuid           NULL,
        flow_execution_id         uuid           NULL,
        node_id                   varchar(120)   NULL,
        device_id                 uuid           NULL,
        email_template_id         uuid           NOT NULL,
        email_template_version_id uuid           NULL,
        recipient_binding_id      uuid           NULL,
        recipient_user_id         uuid           NULL,
        recipient_email           varchar(320)   NOT NULL,
        status                    varchar(16)    NOT NULL
                                  CHECK (status IN ('queued', 'held', 'sent', 'suppressed', 'failed', 'dead_lettered')),
        suppression_reason        varchar(32)    NULL
                                  CHECK (suppression_reason IN ('recipient_out_of_scope', 'no_active_version', 'actions_paused', 'cooldown', 'tenant_rate_limit')),
        message_id                varchar(400)   NOT NULL,
        subject                   varchar(1000)  NULL,
        body_text                 text           NULL,
        body_html                 text           NULL,
        attempts                  jsonb          NOT NULL DEFAULT '[]',
        attempt_count             integer        NOT NULL DEFAULT 0,
        next_attempt_at           timestamptz(3) NULL,
        claim_token               uuid           NULL,
        claimed_until             timestamptz(3) NULL,
        dead_letter_id            uuid           NULL,
        created_at                timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at                timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        sent_at                   timestamptz(3) NULL,
        ended_at                  timestamptz(3) NULL,
        CHECK ((status = 'suppressed') = (suppression_reason IS NOT NULL))
      )
    `);
    await queryRunner.query(`CREATE INDEX email_deliveries_page_idx ON email_deliveries (tenant_id, created_at DESC, email_delivery_id DESC)`);
    await queryRunner.query(`CREATE INDEX email_deliveries_execution_idx ON email_deliveries (flow_execution_id)`);
    // Flood control: the last e-mail of a (flow, node, device), and a tenant's e-mails of the last hour.
    await queryRunner.query(
      `CREATE INDEX email_deliveries_cooldown_idx ON email_deliveries (flow_id, node_id, device_id, created_at) WHERE status <> 'suppressed'`,
    );
    await queryRunner.query(`CREATE INDEX email_deliveries_waiting_idx ON email_deliveries (tenant_id, status) WHERE status IN ('queued', 'failed', 'held')`);
    await queryRunner.query(`CREATE INDEX email_deliveries_due_idx ON email_deliveries (next_attempt_at) WHERE status IN ('queued', 'failed')`);
    await queryRunner.query(`CREATE INDEX email_deliveries_retention_idx ON email_deliveries (ended_at) WHERE ended_at IS NOT NULL`);

    await queryRunner.query(`
      CREATE TABLE dead_letters (
        dead_letter_id            uuid           PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id                 uuid           NOT NULL REFERENCES tenants (tenant_id),
        email_delivery_id         uuid           NOT NULL UNIQUE,
        email_template_id         uuid           NOT NULL,
        email_template_version_id uuid           NOT NULL,
        flow_id                   uuid           NULL,
        flow_execution_id         uuid           NULL,
        device_id                 uuid           NULL,
        recipient_email           varchar(320)   NOT NULL,
        message_id                varchar(400)   NOT NULL,
        subject                   varchar(1000)  NOT NULL,
        body_text                 text           NOT NULL,
        body_html                 text           NULL,
        attempts                  integer        NOT NULL CHECK (attempts >= 1),
        last_error                jsonb          NOT NULL,
        status                    varchar(16)    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'redrive_pending', 'redriven')),
        first_attempt_at          timestamptz(3) NOT NULL,
        last_attempt_at           timestamptz(3) NOT NULL,
        created_at                timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        redriven_at               timestamptz(3) NULL,
        CHECK ((status = 'redriven') = (redriven_at IS NOT NULL))
      )
    `);
    await queryRunner.query(`CREATE INDEX dead_letters_page_idx ON dead_letters (tenant_id, created_at DESC, dead_letter_id DESC)`);
    await queryRunner.query(`CREATE INDEX dead_letters_open_idx ON dead_letters (status) WHERE status <> 'redriven'`);
    await queryRunner.query(`CREATE INDEX dead_letters_retention_idx ON dead_letters (redriven_at) WHERE status = 'redriven'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE dead_letters`);
    await queryRunner.query(`DROP TABLE email_deliveries`);
  }
}
