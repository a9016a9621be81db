import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { KillSwitchState } from '../dto/kill-switch.dto';

export interface KillSwitchRow {
  tenant_id: string;
  state: KillSwitchState;
  reason: string | null;
  changed_at: Date | null;
  changed_by_user_id: string | null;
}

/**
 * The per-tenant e-mail kill-switch rows (`action_kill_switches`), owned by the actions module. Every tenant has
 * one from its creation on: the tenants module calls `createFor` in the transaction that creates the tenant.
 */
@Injectable()
export class ActionKillSwitches {
  /** The tenant's switch, `running`. */
  async createFor(manager: EntityManager, tenantId: string): Promise<void> {
    await manager.query(`INSERT INTO action_kill_switches (tenant_id, state) VALUES ($1, 'running')`, [tenantId]);
  }

  async read(manager: EntityManager, tenantId: string, options: { lock?: boolean } = {}): Promise<KillSwitchRow> {
    const [row] = await manager.query<KillSwitchRow[]>(
      `SELECT tenant_id, state, reason, changed_at, changed_by_user_id FROM action_kill_switches WHERE tenant_id = $1${options.lock ? ' FOR UPDATE' : ''}`,
      [tenantId],
    );
    return row ?? { tenant_id: tenantId, state: 'running', reason: null, changed_at: null, changed_by_user_id: null };
  }

  async set(manager: EntityManager, tenantId: string, state: KillSwitchState, reason: string | null, userId: string): Promise<KillSwitchRow> {
    const [row] = await manager.query<KillSwitchRow[]>(
      `INSERT INTO action_kill_switches (tenant_id, state, reason, changed_at, changed_by_user_id)
       VALUES ($1, $2, $3, clock_timestamp(), $4)
       ON CONFLICT (tenant_id) DO UPDATE SET state = $2, reason = $3, changed_at = clock_timestamp(), changed_by_user_id = $4
       RETURNING tenant_id, state, reason, changed_at, changed_by_user_id`,
      [tenantId, state, reason, userId],
    );
    return row!;
  }
}
