import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pending raw messages move to a queue of their own, so processing a message updates its raw row in place.
 *
 * A raw row (about 2 KB: the body and what was mapped from it) used to be rewritten whole when processing recorded
 * its outcome, with a new entry in each of its seven indexes, because the outcome changed indexed columns (the
 * pending indexes' `processing_status`, the device indexes' `device_id`). Now no index of the table covers a
 * column the outcome sets for a message delivered with a tenant credential, and every page keeps room for its rows'
 * new versions (fillfactor 50, which the old dead versions took anyway), so the update is a heap-only update on
 * the same page: no index entry, a WAL record of the changed bytes only (measured: 112 bytes instead of 2.7 KB).
 *
 * Invariants held by PostgreSQL:
 * - `raw_message_queue` holds exactly the pending raw messages (receipt_seq, id, devEui): triggers add the pending
 *   rows of every INSERT, and take out the rows an UPDATE moves out of `pending` or a DELETE removes, in the same
 *   statement, so no writer can break it;
 * - workers claim from the queue in receipt order, and "an earlier message of this devEui is pending" is an index
 *   lookup on the queue.
 *
 * Messages of a device are found by devEui (which never changes on a device) and then device, so their index is on
 * `dev_eui`, set once when the row is written.
 */
export class RawMessageQueue1766300000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE raw_message_queue (
        receipt_seq              bigint   PRIMARY KEY,
        raw_ingestion_message_id uuid     NOT NULL,
        dev_eui                  char(16) NULL
      )
    `);
    await queryRunner.query(`CREATE INDEX raw_message_queue_dev_eui ON raw_message_queue (dev_eui, receipt_seq)`);
    await queryRunner.query(`
      CREATE FUNCTION raw_message_queue_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO raw_message_queue (receipt_seq, raw_ingestion_message_id, dev_eui)
        SELECT receipt_seq, raw_ingestion_message_id, dev_eui FROM new_rows WHERE processing_status = 'pending';
        RETURN NULL;
      END $$
    `);
    await queryRunner.query(`
      CREATE FUNCTION raw_message_queue_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM raw_message_queue q USING new_rows n
         WHERE q.receipt_seq = n.receipt_seq AND n.processing_status <> 'pending';
        INSERT INTO raw_message_queue (receipt_seq, raw_ingestion_message_id, dev_eui)
        SELECT n.receipt_seq, n.raw_ingestion_message_id, n.dev_eui FROM new_rows n
         WHERE n.processing_status = 'pending'
        ON CONFLICT DO NOTHING;
        RETURN NULL;
      END $$
    `);
    await queryRunner.query(`
      CREATE FUNCTION raw_message_queue_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM raw_message_queue WHERE receipt_seq = OLD.receipt_seq;
        RETURN NULL;
      END $$
    `);
    await queryRunner.query(`
      CREATE TRIGGER raw_message_queue_inserted AFTER INSERT ON raw_ingestion_messages
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION raw_message_queue_inserted()
    `);
    await queryRunner.query(`
      CREATE TRIGGER raw_message_queue_updated AFTER UPDATE ON raw_ingestion_messages
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION raw_message_queue_updated()
    `);
    // Per row, and only for a pending row: retention deletes thousands of other rows per statement, which a
    // statement trigger would first copy into its transition table.
    await queryRunner.query(`
      CREATE TRIGGER raw_message_queue_deleted AFTER DELETE ON raw_ingestion_messages
        FOR EACH ROW WHEN (OLD.processing_status = 'pending') EXECUTE FUNCTION raw_message_queue_deleted()
    `);
    await queryRunner.query(`
      INSERT INTO raw_message_queue (receipt_seq, raw_ingestion_message_id, dev_eui)
      SELECT receipt_seq, raw_ingestion_message_id, dev_eui FROM raw_ingestion_messages WHERE processing_status = 'pending'
    `);

    await queryRunner.query(`DROP INDEX raw_ingestion_messages_pending`);
    await queryRunner.query(`DROP INDEX raw_ingestion_messages_pending_dev_eui`);
    await queryRunner.query(`DROP INDEX raw_ingestion_messages_device`);
    await queryRunner.query(`DROP INDEX raw_ingestion_messages_replay`);
    // Replays read a device's messages by observedAt (received_at for messages without one).
    await queryRunner.query(
      `CREATE INDEX raw_ingestion_messages_replay ON raw_ingestion_messages (dev_eui, observed_at, received_at) WHERE dev_eui IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE raw_ingestion_messages SET (fillfactor = 50)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE raw_ingestion_messages RESET (fillfactor)`);
    await queryRunner.query(`DROP INDEX raw_ingestion_messages_replay`);
    await queryRunner.query(
      `CREATE INDEX raw_ingestion_messages_replay ON raw_ingestion_messages (device_id, observed_at, received_at) WHERE device_id IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX raw_ingestion_messages_device ON raw_ingestion_messages (device_id, received_at DESC) WHERE device_id IS NOT NULL`);
    await queryRunner.query(
      `CREATE INDEX raw_ingestion_messages_pending_dev_eui ON raw_ingestion_messages (dev_eui, receipt_seq) WHERE processing_status = 'pending'`,
    );
    await queryRunner.query(`CREATE INDEX raw_ingestion_messages_pending ON raw_ingestion_messages (receipt_seq) WHERE processing_status = 'pending'`);
    await queryRunner.query(`DROP TRIGGER raw_message_queue_deleted ON raw_ingestion_messages`);
    await queryRunner.query(`DROP TRIGGER raw_message_queue_updated ON raw_ingestion_messages`);
    await queryRunner.query(`DROP TRIGGER raw_message_queue_inserted ON raw_ingestion_messages`);
    await queryRunner.query(`DROP FUNCTION raw_message_queue_deleted()`);
    await queryRunner.query(`DROP FUNCTION raw_message_queue_updated()`);
    await queryRunner.query(`DROP FUNCTION raw_message_queue_inserted()`);
    await queryRunner.query(`DROP TABLE raw_message_queue`);
  }
}
