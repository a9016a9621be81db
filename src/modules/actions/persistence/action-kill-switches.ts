import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

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
}
