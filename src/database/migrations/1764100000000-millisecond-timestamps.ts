import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The API exposes timestamps with millisecond precision, and lists page by (timestamp, id) with cursors that
 * carry the timestamp. Stored with microseconds, two rows created in the same millisecond sorted by digits no
 * client could see. Storing these columns as `timestamptz(3)` makes the exposed value, the sort key and the
 * cursor value one and the same. Existing values are rounded to the millisecond; every later write (including
 * `clock_timestamp()` defaults and `updated_at = clock_timestamp()`) is rounded the same way by the column type.
 * Rounding is monotonic, so `updated_at >= created_at` and every existing order stays true. Timestamps written
 * in the same statement as `updated_at` (`deprecated_at`, `retired_at`, `assigned_at`) get the same precision, so
 * equal instants stay equal in responses.
 */
const COLUMNS: Record<string, string[]> = {
  audit_log: ['occurred_at'],
  users: ['created_at', 'updated_at'],
  sessions: ['created_at', 'last_used_at'],
  tenants: ['created_at', 'updated_at'],
  organization_units: ['created_at', 'updated_at'],
  memberships: ['created_at', 'updated_at'],
  device_types: ['created_at', 'updated_at'],
  device_field_definitions: ['created_at', 'updated_at', 'deprecated_at'],
  devices: ['created_at', 'updated_at', 'retired_at'],
  device_assignments: ['created_at', 'updated_at', 'assigned_at'],
};

export class MillisecondTimestamps1764100000000 implements MigrationInterface {
  name = 'MillisecondTimestamps1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, columns] of Object.entries(COLUMNS)) {
      const changes = columns.map((column) => `ALTER COLUMN ${column} TYPE timestamptz(3)`).join(', ');
      await queryRunner.query(`ALTER TABLE ${table} ${changes}`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, columns] of Object.entries(COLUMNS)) {
      const changes = columns.map((column) => `ALTER COLUMN ${column} TYPE timestamptz`).join(', ');
      await queryRunner.query(`ALTER TABLE ${table} ${changes}`);
    }
  }
}
