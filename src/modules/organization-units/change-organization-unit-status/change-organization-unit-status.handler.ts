import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DISABLE_REACTIVATE, disableActionFor, StatusTransitions } from '../../../shared/state/status-transitions';
import { OrganizationUnitEntity } from '../../tenancy';
import { OrganizationUnitReader } from '../persistence/organization-unit.reader';
import { OrganizationUnitRepository } from '../persistence/organization-unit.repository';
import { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';
import { ChangeOrganizationUnitStatusCommand } from './change-organization-unit-status.command';
import { AuthCache } from '../../../shared/auth/auth-cache';

const TRANSITIONS = new StatusTransitions('organization_unit', DISABLE_REACTIVATE);

/**
 * `active` ⇄ `disabled`; the same status again is not a listed move: 409 `invalid_state` with
 * `currentStatus`. Disabling makes the subtree's
 * `effectiveStatus` disabled, refuses new children there, and makes grants on or below it ineffective (the access
 * layer derives all of that from the statuses on each request; nothing is copied down the tree).
 */
@CommandHandler(ChangeOrganizationUnitStatusCommand)
export class ChangeOrganizationUnitStatusHandler implements ICommandHandler<ChangeOrganizationUnitStatusCommand, OrganizationUnitResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly units: OrganizationUnitRepository,
    private readonly reader: OrganizationUnitReader,
    private readonly authCache: AuthCache,
  ) {}

  async execute({ caller, organizationUnitId, status }: ChangeOrganizationUnitStatusCommand): Promise<OrganizationUnitResponse> {
    const { access, unit: found } = await this.reader.resolve(caller.principal, organizationUnitId);
    access.require(caller.permission, found);
    return this.unitOfWork.run(async (tx) => {
      const { organizationUnitId: unitId, tenantId } = found;
      await TRANSITIONS.apply(tx, {
        action: disableActionFor(status),
        lock: () => this.units.lock(tx.manager, unitId),
        update: async (_unit, move) => {
          await tx.manager.update(OrganizationUnitEntity, { organizationUnitId: unitId }, { status: move.to, updatedAt: () => 'clock_timestamp()' });
          // The effective status of every unit below changes too: every grant of the tenant is reloaded.
          await this.authCache.invalidate(tx.manager, { tenantId });
        },
        entityId: unitId,
        tenantId,
      });
      return this.reader.presentOne(access, await this.units.find(tx.manager, unitId), tx.manager);
    });
  }
}
