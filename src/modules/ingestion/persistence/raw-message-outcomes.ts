import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { plainArrayLiteral } from '../../../shared/database/array-literal';

/** What processing decided for one pending raw message (`pending` -> one of these, once). */
export interface RawMessageOutcome {
  rawIngestionMessageId: string;
  status: 'processed' | 'unrouted' | 'rejected' | 'skipped';
  /** Null for `processed`. */
  reason: string | null;
  /** The device it was routed to; null when it was not (or must stay unnamed, `tenant_mismatch`). */
  deviceId: string | null;
  /** The routed device's tenant; null keeps the delivering credential's tenant. */
  tenantId: string | null;
  flowExecutionId: string | null;
}

/**
 * The one way another module changes a stored raw message: processing records each claimed message's outcome
 * through `record`, inside the transaction that claimed it (and stored its execution), so the outcome commits
 * with the execution or not at all. Ingestion owns `raw_ingestion_messages`; nothing else writes it.
 */
@Injectable()
export class RawMessageOutcomes {
  /** One statement for the whole batch; rows are updated in the order given (the claim's order: the same lock order). */
  async record(manager: EntityManager, outcomes: readonly RawMessageOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await manager.query(
      `UPDATE raw_ingestion_messages r
          SET processing_status = u.status, processing_reason = u.reason, device_id = u.device_id,
              tenant_id = coalesce(u.tenant_id, r.tenant_id), flow_execution_id = u.flow_execution_id
         FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::uuid[], $5::uuid[], $6::uuid[])
              AS u(id, status, reason, device_id, tenant_id, flow_execution_id)
        WHERE r.raw_ingestion_message_id = u.id`,
      [
        plainArrayLiteral(outcomes.map((u) => u.rawIngestionMessageId)),
        outcomes.map((u) => u.status),
        outcomes.map((u) => u.reason),
        plainArrayLiteral(outcomes.map((u) => u.deviceId)),
        plainArrayLiteral(outcomes.map((u) => u.tenantId)),
        plainArrayLiteral(outcomes.map((u) => u.flowExecutionId)),
      ],
    );
  }
}
