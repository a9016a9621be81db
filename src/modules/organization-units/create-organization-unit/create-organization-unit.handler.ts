import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { ConflictError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { OrganizationUnitEntity } from '../../tenancy';
import { MAX_UNIT_DEPTH, OrganizationUnitRepository, UNIT_CONSTRAINTS } from '../persistence/organization-unit.repository';
import { OrganizationUnitReader } from '../persistence/organization-unit.reader';
import { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';
import { CreateOrganizationUnitCommand } from './create-organization-unit.command';

const PARENT_PATH = 'body.parentOrganizationUnitId';

/**
 * A root needs the permission over the whole tenant tree; a child needs a grant that covers the
 * new unit itself, i.e. one with descendants on the parent or above it (a grant on exactly the parent without
 * descendants covers the parent, not its children). The path and depth come from the parent row, read under
 * FOR SHARE together with its ancestors, so a concurrent disable cannot slip in between the check and the insert.
 */
@CommandHandler(CreateOrganizationUnitCommand)
export class CreateOrganizationUnitHandler implements ICommandHandler<CreateOrganizationUnitCommand, OrganizationUnitResponse> {
  constructor(
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly units: OrganizationUnitRepository,
    private readonly reader: OrganizationUnitReader,
  ) {}

  async execute({ caller, tenantNumber, input }: CreateOrganizationUnitCommand): Promise<OrganizationUnitResponse> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    const { tenantId } = access.tenant;
    // A caller without the permission anywhere in the tenant is refused before its body references are looked at.
    access.requireAnywhere(caller.permission);

    const parentId = input.parentOrganizationUnitId?.toLowerCase() ?? null;
    const parent = parentId ? await this.units.findInTenant(this.units.defaultManager, tenantId, parentId) : null;
    if (parentId && (!parent || !access.relationTo(parent))) {
      throw ValidationFailedError.single(PARENT_PATH, 'reference_not_found', 'No visible organization unit of this tenant has this id.');
    }
    const organizationUnitId = randomUUID();
    const ancestorIds = parent ? [...parent.ancestorIds, parent.organizationUnitId] : [];
    access.require(caller.permission, { organizationUnitId, ancestorIds });

    return this.unitOfWork.run(
      async (tx) => {
        if (parent) {
          const path = await this.units.lockPathForShare(tx.manager, ancestorIds);
          if (access.tenant.status === 'disabled' || path.some((unit) => unit.status === 'disabled')) {
            throw new ConflictError('parent_disabled', 'The parent unit is disabled (itself, an ancestor or its tenant).');
          }
          if (ancestorIds.length + 1 > MAX_UNIT_DEPTH) {
            throw new ConflictError('max_depth', `Organization units nest at most ${MAX_UNIT_DEPTH} levels deep.`, { maxDepth: MAX_UNIT_DEPTH });
          }
        }
        await this.units.assertKeyAvailable(tx.manager, tenantId, input.key);
        await tx.manager.insert(OrganizationUnitEntity, {
          organizationUnitId,
          tenantId,
          parentOrganizationUnitId: parent?.organizationUnitId ?? null,
          ancestorIds,
          depth: ancestorIds.length + 1,
          key: input.key,
          name: input.name,
          metadata: input.metadata ?? {},
        });
        const unit = await this.units.find(tx.manager, organizationUnitId);
        await tx.audit({
          eventType: 'organization_unit.created',
          action: 'create',
          entityType: 'organization_unit',
          entityId: unit.organizationUnitId,
          tenantId,
          metadata: { key: unit.key, name: unit.name, parentOrganizationUnitId: unit.parentOrganizationUnitId, depth: unit.depth },
        });
        return this.reader.presentOne(access, unit, tx.manager);
      },
      { constraints: UNIT_CONSTRAINTS },
    );
  }
}
