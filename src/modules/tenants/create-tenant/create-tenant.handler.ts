import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { ActionKillSwitches } from '../../actions';
import { TenantEntity } from '../../tenancy';
import { TenantRepository, TENANT_CONSTRAINTS } from '../persistence/tenant.repository';
import { TenantResponse } from '../dto/tenant.response.dto';
import { CreateTenantCommand } from './create-tenant.command';

/** The tenant (number from `tenant_number_seq`) and its `running` e-mail kill-switch, in one transaction. */
@CommandHandler(CreateTenantCommand)
export class CreateTenantHandler implements ICommandHandler<CreateTenantCommand, TenantResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly tenants: TenantRepository,
    private readonly killSwitches: ActionKillSwitches,
  ) {}

  execute({ input }: CreateTenantCommand): Promise<TenantResponse> {
    return this.unitOfWork.run(
      async (tx) => {
        await this.tenants.assertKeyAvailable(tx.manager, input.key);
        const inserted = await tx.manager.insert(TenantEntity, { key: input.key, name: input.name, metadata: input.metadata ?? {} });
        const tenantId = (inserted.identifiers[0] as { tenantId: string }).tenantId;
        await this.killSwitches.createFor(tx.manager, tenantId);
        const tenant = await this.tenants.find(tx.manager, tenantId);
        await tx.audit({
          eventType: 'tenant.created',
          action: 'create',
          entityType: 'tenant',
          entityId: tenant.tenantId,
          tenantId: tenant.tenantId,
          metadata: { tenantNumber: tenant.tenantNumber, key: tenant.key, name: tenant.name, status: tenant.status },
        });
        return TenantResponse.of(tenant);
      },
      { constraints: TENANT_CONSTRAINTS },
    );
  }
}
