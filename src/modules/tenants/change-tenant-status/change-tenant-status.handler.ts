import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DISABLE_REACTIVATE, disableActionFor, StatusTransitions } from '../../../shared/state/status-transitions';
import { TenantEntity } from '../../tenancy';
import { TenantRepository } from '../persistence/tenant.repository';
import { TenantResponse } from '../dto/tenant.response.dto';
import { ChangeTenantStatusCommand } from './change-tenant-status.command';
import { AuthCache } from '../../../shared/auth/auth-cache';

const TRANSITIONS = new StatusTransitions('tenant', DISABLE_REACTIVATE);

/**
 * `active` ⇄ `disabled` (platform admins). The same status again is not a listed move: 409
 * `invalid_state` with `currentStatus` (only users and the kill-switch are idempotent). A disabled
 * tenant makes every non-admin grant in it ineffective: the access layer reads the status on each request.
 */
@CommandHandler(ChangeTenantStatusCommand)
export class ChangeTenantStatusHandler implements ICommandHandler<ChangeTenantStatusCommand, TenantResponse> {
  constructor(
    private readonly access: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly tenants: TenantRepository,
    private readonly authCache: AuthCache,
  ) {}

  async execute({ principal, tenantNumber, status }: ChangeTenantStatusCommand): Promise<TenantResponse> {
    const { tenant: found } = await this.access.tenantByNumber(principal, tenantNumber);
    const { tenantId } = found;
    return this.unitOfWork.run(async (tx) => {
      await TRANSITIONS.apply(tx, {
        action: disableActionFor(status),
        lock: () => this.tenants.lock(tx.manager, tenantId),
        update: async (_tenant, move) => {
          await tx.manager.update(TenantEntity, { tenantId }, { status: move.to, updatedAt: () => 'clock_timestamp()' });
          await this.authCache.invalidate(tx.manager, { tenantId });
        },
        entityId: tenantId,
        tenantId,
      });
      return TenantResponse.of(await this.tenants.find(tx.manager, tenantId));
    });
  }
}
