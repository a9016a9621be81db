import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { TenantEntity } from '../../tenancy/domain/tenant.entity';
import { TenantRepository } from '../domain/tenant.repository';
import { TenantResponse } from '../tenant.response.dto';
import { ChangeTenantStatusCommand } from './change-tenant-status.command';
import { AuthCache } from '../../../shared/auth/auth-cache';

/**
 * Design §5.4, §7: `active` ⇄ `disabled` (platform admins). The same status again is not a listed move: 409
 * `invalid_state` with `currentStatus` (C4; only users and the kill-switch are idempotent). A disabled
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
    return this.unitOfWork.run(async (tx) => {
      const tenant = await this.tenants.lock(tx.manager, found.tenantId);
      if (tenant.status === status) {
        throw new ConflictError('invalid_state', `The tenant is already ${status}.`, { currentStatus: tenant.status });
      }
      await tx.manager.update(TenantEntity, { tenantId: tenant.tenantId }, { status, updatedAt: () => 'clock_timestamp()' });
      await this.authCache.invalidate(tx.manager, { tenantId: tenant.tenantId });
      const disabling = status === 'disabled';
      await tx.audit({
        eventType: disabling ? 'tenant.disabled' : 'tenant.reactivated',
        action: disabling ? 'disable' : 'reactivate',
        entityType: 'tenant',
        entityId: tenant.tenantId,
        tenantId: tenant.tenantId,
        statusCode: 200,
        metadata: { status: { before: tenant.status, after: status } },
      });
      return TenantResponse.of(await this.tenants.find(tx.manager, tenant.tenantId));
    });
  }
}
