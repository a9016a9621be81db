import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { OrganizationUnitEntity } from '../../tenancy';
import { sameMap } from '../../tenants';
import { OrganizationUnitReader } from '../persistence/organization-unit.reader';
import { OrganizationUnitRepository } from '../persistence/organization-unit.repository';
import { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';
import { UpdateOrganizationUnitCommand } from './update-organization-unit.command';

/** Rename or replace metadata of a unit the caller covers (a navigation ancestor is 403). */
@CommandHandler(UpdateOrganizationUnitCommand)
export class UpdateOrganizationUnitHandler implements ICommandHandler<UpdateOrganizationUnitCommand, OrganizationUnitResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly units: OrganizationUnitRepository,
    private readonly reader: OrganizationUnitReader,
  ) {}

  async execute({ caller, organizationUnitId, changes }: UpdateOrganizationUnitCommand): Promise<OrganizationUnitResponse> {
    const { access, unit: found } = await this.reader.resolve(caller.principal, organizationUnitId);
    access.require(caller.permission, found);
    return this.unitOfWork.run(async (tx) => {
      const unit = await this.units.lock(tx.manager, found.organizationUnitId);
      const changed: ('name' | 'metadata')[] = [];
      if (changes.name !== undefined && changes.name !== unit.name) changed.push('name');
      if (changes.metadata !== undefined && !sameMap(unit.metadata, changes.metadata)) changed.push('metadata');
      if (changed.length === 0) return this.reader.presentOne(access, unit, tx.manager);

      await tx.manager.update(
        OrganizationUnitEntity,
        { organizationUnitId: unit.organizationUnitId },
        { ...Object.fromEntries(changed.map((field) => [field, changes[field]])), updatedAt: () => 'clock_timestamp()' },
      );
      await tx.audit({
        eventType: 'organization_unit.updated',
        action: 'update',
        entityType: 'organization_unit',
        entityId: unit.organizationUnitId,
        tenantId: unit.tenantId,
        metadata: { changedFields: changed, ...(changed.includes('name') ? { name: { before: unit.name, after: changes.name } } : {}) },
      });
      return this.reader.presentOne(access, await this.units.find(tx.manager, unit.organizationUnitId), tx.manager);
    });
  }
}
