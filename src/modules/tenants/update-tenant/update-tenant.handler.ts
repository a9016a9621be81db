import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { TenantEntity } from '../../tenancy';
import { sameMap, TenantRepository } from '../persistence/tenant.repository';
import { TenantResponse } from '../dto/tenant.response.dto';
import { UpdateTenantCommand } from './update-tenant.command';
import { AuthCache } from '../../../shared/auth/auth-cache';

/** `tenant:write` via a tenant-level grant; a request that changes nothing writes nothing. */
@CommandHandler(UpdateTenantCommand)
export class UpdateTenantHandler implements ICommandHandler<UpdateTenantCommand, TenantResponse> {
  constructor(
    private readonly access: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly tenants: TenantRepository,
    private readonly authCache: AuthCache,
  ) {}

  async execute({ caller, tenantNumber, changes }: UpdateTenantCommand): Promise<TenantResponse> {
    const access = await this.access.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const tenant = await this.tenants.lock(tx.manager, access.tenant.tenantId);
      const changed: ('name' | 'metadata')[] = [];
      if (changes.name !== undefined && changes.name !== tenant.name) changed.push('name');
      if (changes.metadata !== undefined && !sameMap(tenant.metadata, changes.metadata)) changed.push('metadata');
      if (changed.length === 0) return TenantResponse.of(tenant);

      await tx.manager.update(
        TenantEntity,
        { tenantId: tenant.tenantId },
        { ...Object.fromEntries(changed.map((field) => [field, changes[field]])), updatedAt: () => 'clock_timestamp()' },
      );
      await this.authCache.invalidate(tx.manager, { tenantId: tenant.tenantId });
      await tx.audit({
        eventType: 'tenant.updated',
        action: 'update',
        entityType: 'tenant',
        entityId: tenant.tenantId,
        tenantId: tenant.tenantId,
        metadata: { changedFields: changed, ...(changed.includes('name') ? { name: { before: tenant.name, after: changes.name } } : {}) },
      });
      return TenantResponse.of(await this.tenants.find(tx.manager, tenant.tenantId));
    });
  }
}
