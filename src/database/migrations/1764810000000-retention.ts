import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention: the indexes that keep deleting old rows and unpinning raw messages cheap.
 *
 * Old raw messages, executions and expired dedup keys are deleted in batches walking an index on their time column
 * (raw_ingestion_messages_received, flow_executions_retention_idx, ingestion_dedup_keys_expiry), each batch a
 * short transaction, rather than by time-partitioning the tables and dropping old partitions:
 * - a partitioned table's unique indexes must contain the partition key. The raw table's primary key is the
 *   message id alone: dedup answers and fixtures name a message by it, and raw messages are read by id (the
 *   receipt time is only a hint). Partitioned by received_at, PostgreSQL could no longer enforce that the id is
 *   unique, and every read by id alone would probe each partition. The same holds for flow_executions, which
 *   flow_action_requests references by its id;
 * - pinned raw messages (referenced by fixtures) outlive their time slice: a partition could be dropped only
 *   after moving them out;
 * - a batched delete costs about the same per row whatever the table's size (an index range, then the rows by
 *   their physical address), and when nothing is old it is a single index probe; at the measured rate (README,
 *   "Retention") it keeps up with sustained ingest far above what one node accepts. Past that, partitioning
 *   becomes the better trade and these ids would move to a composite key.
 *
 * The indexes added here:
 * - flow_action_requests by execution: deleting an execution cascades to its e-mail requests, and without an
 *   index every cascaded row would scan the whole table;
 * - flow_fixtures by raw message: unpinning checks whether another fixture still references the message.
 */
export class Retention1764810000000 implements MigrationInterface {
  name = 'Retention1764810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX flow_action_requests_execution_idx ON flow_action_requests (flow_execution_id)`);
    await queryRunner.query(
      `CREATE INDEX flow_fixtures_raw_message_idx ON flow_fixtures (raw_ingestion_message_id) WHERE raw_ingestion_message_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX flow_fixtures_raw_message_idx`);
    await queryRunner.query(`DROP INDEX flow_action_requests_execution_idx`);
  }
}
