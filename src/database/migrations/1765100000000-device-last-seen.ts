import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `devices.last_seen_at`: the receipt time of the device's last processed uplink (null before the first). Live
 * processing writes it once per device per batch; it is not part of the device's `updated_at`, since it records
 * traffic, not a change made through the API. No index: it is read with the device row, never searched.
 */
export class DeviceLastSeen1765100000000 implements MigrationInterface {
  name = 'DeviceLastSeen1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE devices ADD COLUMN last_seen_at timestamptz(3) NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE devices DROP COLUMN last_seen_at`);
  }
}
