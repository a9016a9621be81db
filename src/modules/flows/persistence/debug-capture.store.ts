import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { FlowDebugCaptureResponse } from '../dto/debug-capture.response.dto';

/** How long a replica trusts its list of flows with an active capture before reading it again. */
export const ACTIVE_CAPTURES_TTL_MS = 1000;

/** A live execution that may be captured: its flow and its id. */
export interface CaptureCandidate {
  flowId: string;
  flowExecutionId: string;
}

interface CaptureRow {
  flow_id: string;
  started_at: Date;
  ends_at: Date;
  max_executions: number;
  remaining_executions: number;
  captured_executions: number;
  active: boolean;
}

const ACTIVE = `ends_at > clock_timestamp() AND remaining_executions > 0`;
const COLUMNS = `flow_id, started_at, ends_at, max_executions, remaining_executions, captured_executions, (${ACTIVE}) AS active`;

/**
 * Debug captures of flows (table `flow_debug_captures`, one row per flow). The API side starts, reads and ends them;
 * live processing asks, once per batch, which of the batch's executions are captured.
 *
 * The processing side costs nothing while no capture is active: which flows have one is read at most once per
 * ACTIVE_CAPTURES_TTL_MS per replica (and again at once after a start or end in this replica), so another replica's
 * capture begins within that time. Only a batch holding executions of such a flow locks the capture rows (in flow id
 * order, so batches cannot deadlock) and counts its executions against them in its own transaction, so exactly
 * `maxExecutions` executions are captured however many workers and replicas run, and none after `endsAt`.
 */
@Injectable()
export class DebugCaptureStore {
  private active: { flowIds: ReadonlySet<string>; readAt: number } | null = null;
  private reading: Promise<ReadonlySet<string>> | null = null;

  /** The capture state of a flow (inactive with nulls when it never had one). */
  async state(manager: EntityManager, flowId: string): Promise<FlowDebugCaptureResponse> {
    const [row] = await manager.query<CaptureRow[]>(`SELECT ${COLUMNS} FROM flow_debug_captures WHERE flow_id = $1`, [flowId]);
    return responseOf(flowId, row);
  }

  /** Starts a capture, replacing the flow's previous one (its counts start again). */
  async start(manager: EntityManager, flowId: string, tenantId: string, minutes: number, maxExecutions: number): Promise<FlowDebugCaptureResponse> {
    const [row] = await manager.query<CaptureRow[]>(
      `INSERT INTO flow_debug_captures AS c (flow_id, tenant_id, started_at, ends_at, max_executions, remaining_executions, captured_executions)
       VALUES ($1, $2, clock_timestamp(), clock_timestamp() + make_interval(mins => $3::int), $4, $4, 0)
       ON CONFLICT (flow_id) DO UPDATE
          SET started_at = excluded.started_at, ends_at = excluded.ends_at, max_executions = excluded.max_executions,
              remaining_executions = excluded.remaining_executions, captured_executions = 0
       RETURNING ${COLUMNS}`,
      [flowId, tenantId, minutes, maxExecutions],
    );
    return responseOf(flowId, row);
  }

  /** Ends the flow's active capture now; null when none was active (nothing changed). */
  async end(manager: EntityManager, flowId: string): Promise<FlowDebugCaptureResponse | null> {
    // an UPDATE answers [rows, affected count]
    const [rows] = await manager.query<[CaptureRow[], number]>(
      `UPDATE flow_debug_captures SET ends_at = clock_timestamp() WHERE flow_id = $1 AND ${ACTIVE} RETURNING ${COLUMNS}`,
      [flowId],
    );
    const row = rows[0];
    return row ? responseOf(flowId, { ...row, active: false }) : null;
  }

  /** Makes this replica read the active captures again before its next batch. */
  forget(): void {
    this.active = null;
  }

  /**
   * Which of `candidates` (a batch's live executions, in run order) keep their node outputs: for each flow with an
   * active capture, the first `remainingExecutions` of its executions, counted against the capture in `manager`'s
   * transaction (the batch's). Without an active capture among the batch's flows: no statement at all, or one
   * cached read per ACTIVE_CAPTURES_TTL_MS.
   */
  async capture(manager: EntityManager, candidates: readonly CaptureCandidate[]): Promise<ReadonlySet<string>> {
    if (candidates.length === 0) return EMPTY;
    const active = await this.activeFlowIds(manager);
    if (active.size === 0) return EMPTY;
    const byFlow = new Map<string, string[]>();
    for (const { flowId, flowExecutionId } of candidates) {
      if (!active.has(flowId)) continue;
      const list = byFlow.get(flowId) ?? [];
      list.push(flowExecutionId);
      byFlow.set(flowId, list);
    }
    if (byFlow.size === 0) return EMPTY;
    const rows = await manager.query<{ flow_id: string; remaining_executions: number }[]>(
      `SELECT flow_id, remaining_executions FROM flow_debug_captures
        WHERE flow_id = ANY ($1::uuid[]) AND ${ACTIVE}
        ORDER BY flow_id
          FOR UPDATE`,
      [[...byFlow.keys()]],
    );
    if (rows.length === 0) return EMPTY;
    const captured = new Set<string>();
    const counts = rows.map((row) => {
      const granted = byFlow.get(row.flow_id)!.slice(0, row.remaining_executions);
      for (const id of granted) captured.add(id);
      return granted.length;
    });
    await manager.query(
      `UPDATE flow_debug_captures c
          SET remaining_executions = c.remaining_executions - u.n, captured_executions = c.captured_executions + u.n
         FROM unnest($1::uuid[], $2::int[]) AS u(flow_id, n)
        WHERE c.flow_id = u.flow_id`,
      [rows.map((row) => row.flow_id), counts],
    );
    return captured;
  }

  private async activeFlowIds(manager: EntityManager): Promise<ReadonlySet<string>> {
    if (this.active && Date.now() - this.active.readAt < ACTIVE_CAPTURES_TTL_MS) return this.active.flowIds;
    this.reading ??= (async () => {
      try {
        const readAt = Date.now();
        const rows = await manager.query<{ flow_id: string }[]>(`SELECT flow_id FROM flow_debug_captures WHERE ${ACTIVE}`);
        const flowIds = new Set(rows.map((row) => row.flow_id));
        this.active = { flowIds, readAt };
        return flowIds;
      } finally {
        this.reading = null;
      }
    })();
    return this.reading;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

function responseOf(flowId: string, row: CaptureRow | undefined): FlowDebugCaptureResponse {
  if (!row) return { flowId, active: false, startedAt: null, endsAt: null, maxExecutions: null, remainingExecutions: 0, capturedExecutions: 0 };
  return {
    flowId,
    active: row.active,
    startedAt: row.started_at.toISOString(),
    endsAt: row.ends_at.toISOString(),
    maxExecutions: row.max_executions,
    remainingExecutions: row.active ? row.remaining_executions : 0,
    capturedExecutions: row.captured_executions,
  };
}
