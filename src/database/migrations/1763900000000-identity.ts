import { MigrationInterface, QueryRunner } from 'typeorm';

/** Users, their sessions and refresh tokens, and the login throttle. */
export class Identity1763900000000 implements MigrationInterface {
  name = 'Identity1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE users (
        user_id                  uuid         PRIMARY KEY DEFAULT gen_random_uuid(),
        username                 varchar(64)  NOT NULL CHECK (username ~ '^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$'),
        email                    varchar(254) NOT NULL CHECK (email ~ '^[^@\\s]+@[^@\\s]+$'),
        display_name             varchar(200) NOT NULL CHECK (btrim(display_name) <> ''),
        status                   varchar(16)  NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
        metadata                 jsonb        NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(metadata) = 'object'),
        is_protected             boolean      NOT NULL DEFAULT false,
        is_platform_admin        boolean      NOT NULL DEFAULT false,
        password_hash            varchar(100) NULL,
        password_change_required boolean      NOT NULL DEFAULT false,
        password_changed_at      timestamptz  NULL,
        created_at               timestamptz  NOT NULL DEFAULT clock_timestamp(),
        updated_at               timestamptz  NOT NULL DEFAULT clock_timestamp()
      )
    `);
    // Duplicates are compared case-insensitively.
    await queryRunner.query(`CREATE UNIQUE INDEX users_username_ci_key ON users (lower(username))`);
    await queryRunner.query(`CREATE UNIQUE INDEX users_email_ci_key ON users (lower(email))`);
    await queryRunner.query(`CREATE INDEX users_page_idx ON users (created_at, user_id)`);

    await queryRunner.query(`
      CREATE TABLE sessions (
        session_id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id                 uuid        NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
        created_at              timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_used_at            timestamptz NOT NULL DEFAULT clock_timestamp(),
        refresh_idle_expires_at timestamptz NOT NULL,
        revoked_at              timestamptz NULL,
        revoke_reason           varchar(32) NULL,
        CHECK ((revoked_at IS NULL) = (revoke_reason IS NULL))
      )
    `);
    await queryRunner.query(`CREATE INDEX sessions_user_active_idx ON sessions (user_id, last_used_at DESC) WHERE revoked_at IS NULL`);

    // Every refresh token ever issued for a session, as a SHA-256 hash only: the current one has
    // rotated_at NULL; a rotated one presented again is either a race (inside the window) or reuse.
    await queryRunner.query(`
      CREATE TABLE refresh_tokens (
        token_hash  char(64)    PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
        session_id  uuid        NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
        issued_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
        rotated_at  timestamptz NULL
      )
    `);
    await queryRunner.query(`CREATE UNIQUE INDEX refresh_tokens_current_key ON refresh_tokens (session_id) WHERE rotated_at IS NULL`);

    // Login throttle state lives here so it holds across replicas and restarts.
    await queryRunner.query(`
      CREATE TABLE login_failures (
        identifier_key       varchar(320) PRIMARY KEY,
        consecutive_failures integer      NOT NULL CHECK (consecutive_failures >= 0),
        last_failure_at      timestamptz  NOT NULL
      )
    `);
    await queryRunner.query(`
      CREATE TABLE login_ip_attempts (
        ip           varchar(64) NOT NULL,
        window_start timestamptz NOT NULL,
        attempts     integer     NOT NULL CHECK (attempts > 0),
        PRIMARY KEY (ip, window_start)
      )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE login_ip_attempts`);
    await queryRunner.query(`DROP TABLE login_failures`);
    await queryRunner.query(`DROP TABLE refresh_tokens`);
    await queryRunner.query(`DROP TABLE sessions`);
    await queryRunner.query(`DROP TABLE users`);
  }
}
