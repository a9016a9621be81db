import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter } from 'prom-client';
import { AccessService } from '../../../shared/access/access.service';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { KillSwitchResponse } from '../dto/kill-switch.dto';
import { EMAIL_DELIVERIES_TOTAL } from '../mail/delivery-metrics';
import { ActionKillSwitches } from '../persistence/action-kill-switches';
import { ChangeKillSwitchCommand } from './change-kill-switch.command';
import { RELEASE_HELD_DELIVERIES_JOB } from './release-held-deliveries.job';

/**
 * Pause: the switch goes `paused` and the tenant's waiting deliveries (`queued`, or `failed` awaiting a retry)
 * become `held` in the same transaction; requests expanded from now on are suppressed. Resume: `running`, and a
 * job puts the held deliveries back in the queue. Both are idempotent: the same state again is a 200 that changes
 * and audits nothing.
 */
@CommandHandler(ChangeKillSwitchCommand)
export class ChangeKillSwitchHandler implements ICommandHandler<ChangeKillSwitchCommand, KillSwitchResponse> {
  constructor(
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly switches: ActionKillSwitches,
    @InjectMetric(EMAIL_DELIVERIES_TOTAL) private readonly outcomes: Counter<string>,
  ) {}

  async execute({ caller, tenantNumber, action, reason }: ChangeKillSwitchCommand): Promise<KillSwitchResponse> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    const tenantId = access.tenant.tenantId;
    let held = 0;
    const result = await this.unitOfWork.run(async (tx) => {
      const current = await this.switches.read(tx.manager, tenantId, { lock: true });
      const target = action === 'pause' ? 'paused' : 'running';
      if (current.state === target) return KillSwitchResponse.of(current);
      const changed = await this.switches.set(tx.manager, tenantId, target, action === 'pause' ? reason : null, caller.principal.userId);
      if (action === 'pause') {
        const [, count] = await tx.manager.query<[unknown[], number]>(
          `UPDATE email_deliveries SET status = 'held', next_attempt_at = NULL, updated_at = clock_timestamp()
            WHERE tenant_id = $1 AND status IN ('queued', 'failed') AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
           RETURNING 1`,
          [tenantId],
        );
        held = count;
      } else {
        await tx.enqueue({ name: RELEASE_HELD_DELIVERIES_JOB, payload: { tenantId } });
      }
      await tx.audit({
        eventType: action === 'pause' ? 'action_kill_switch.paused' : 'action_kill_switch.resumed',
        action,
        entityType: 'action_kill_switch',
        entityId: tenantId,
        tenantId,
        metadata: { before: current.state, after: target, ...(action === 'pause' ? { reason, heldDeliveries: held } : {}) },
      });
      return KillSwitchResponse.of(changed);
    });
    if (held > 0) this.outcomes.inc({ outcome: 'held' }, held);
    return result;
  }
}
