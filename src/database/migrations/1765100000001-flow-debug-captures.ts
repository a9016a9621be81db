import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `flow_debug_captures`: at most one debug capture per flow (the latest; starting one again replaces it). While it is
 * active (`ends_at` in the future and `remaining_executions` > 0) the flow's live executions keep each node's output
 * in their trace. Live processing decrements `remaining_executions` in its batch transaction under the row's lock, so
 * the count is exact with any number of workers and replicas. A table, not memory: it survives restarts and every
 * replica sees it.
 */
export class FlowDebugCaptures1765100000001 implements MigrationInterface {
  name = 'FlowDebugCaptures1765100000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE flow_debug_captures (
        flow_id              uuid           PRIMARY KEY REFERENCES flows (flow_id) ON DELETE CASCADE,
        tenant_id            uuid           NOT NULL REFERENCES tenants (tenant_id),
        started_at           timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        ends_at              timestamptz(3) NOT NULL,
        max_executions       integer        NOT NULL CHECK (max_executions BETWEEN 1 AND 1000),
        remaining_executions integer        NOT NULL CHECK (remaining_executions BETWEEN 0 AND max_executions),
        captured_executions  integer        NOT NULL DEFAULT 0 CHECK (captured_executions + remaining_executions = max_executions)
      )
    `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE flow_debug_captures`);
  }
}
