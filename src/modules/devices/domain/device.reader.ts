import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService, TenantAccess, UnitRef } from '../../../shared/access/access.service';
import type { Permission } from '../../../shared/access/permissions';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { DeviceAssignmentEntity } from './device-assignment.entity';
import { DeviceEntity } from './device.entity';
import { Interval, PeriodRef, visibleHistory } from './device-visibility';
import { resolveResource } from '../../../shared/access/resolve-resource';

/** The 404 of every device the caller cannot see: missing, in another tenant, or outside its scope (design §2). */
export const deviceNotFound = () => new ResourceNotFoundError('device');

const READ: Permission = 'devices:read';

/** An assignment period with its unit's path. */
export interface AssignmentWithUnit {
  assignment: DeviceAssignmentEntity;
  unit: UnitRef;
}

/** A device the caller can see, what it may do in its tenant, and the device's open period (if any). */
export interface ResolvedDevice {
  access: TenantAccess;
  device: DeviceEntity;
  current: AssignmentWithUnit | null;
}

interface PeriodRow {
  ancestor_ids: string[] | null;
}

/**
 * Reads devices as a caller sees them (design §3 "Devices"): visible iff the current unit is in the caller's
 * accessible set, or the device is unassigned and the caller holds a tenant-level grant. Every module that
 * addresses a device by its flat URL (devices, assignments, telemetry) resolves it here.
 */
@Injectable()
export class DeviceReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
  ) {}

  /**
   * The device if the caller sees it, else exactly the 404 of a missing one. `permission` is only used for
   * visibility; the handler still calls `access.require(permission, unit)` (403 for a visible device).
   */
  async resolve(principal: Principal, deviceId: string, manager: EntityManager = this.dataSource.manager): Promise<ResolvedDevice> {
    const { resource, access } = await resolveResource(this.accessService, principal, {
      load: async () => {
        // One round trip for the device, its open period (at most one: a partial unique index) and that unit's path.
        const { entities, raw } = await manager
          .createQueryBuilder(DeviceEntity, 'd')
          .leftJoinAndMapOne('d.openAssignment', DeviceAssignmentEntity, 'a', 'a.device_id = d.device_id AND a.valid_to IS NULL')
          .leftJoin('organization_units', 'u', 'u.organization_unit_id = a.organization_unit_id')
          .addSelect('u.ancestor_ids', 'ancestor_ids')
          .where('d.device_id = :deviceId', { deviceId })
          .getRawAndEntities<PeriodRow>();
        const found = entities[0] as (DeviceEntity & { openAssignment?: DeviceAssignmentEntity | null }) | undefined;
        if (!found) return null;
        const { openAssignment, ...device } = found;
        const current = openAssignment
          ? { assignment: openAssignment, unit: { organizationUnitId: openAssignment.organizationUnitId, ancestorIds: raw[0]?.ancestor_ids ?? [] } }
          : null;
        return { tenantId: device.tenantId, device: Object.assign(new DeviceEntity(), device), current };
      },
      notFound: deviceNotFound,
      visible: (tenantAccess, { current }) => this.isVisible(tenantAccess, current),
    });
    return { access, device: resource.device, current: resource.current };
  }

  /** Design §3: current unit accessible, or unassigned with a tenant-level grant. */
  isVisible(access: TenantAccess, current: AssignmentWithUnit | null, permission: Permission = READ): boolean {
    return current ? access.covers(permission, current.unit) : access.can(permission, 'T');
  }

  /** The scope target of a device: its current unit, or the tenant node when unassigned (`undefined`). */
  target(current: AssignmentWithUnit | null): UnitRef | undefined {
    return current?.unit;
  }

  async currentAssignment(manager: EntityManager, deviceId: string): Promise<AssignmentWithUnit | null> {
    const [period] = await this.periods(manager, deviceId, 'AND a.valid_to IS NULL');
    return period ?? null;
  }

  /** Every period of the device, oldest first, with its unit's path. */
  allPeriods(manager: EntityManager, deviceId: string): Promise<AssignmentWithUnit[]> {
    return this.periods(manager, deviceId, '');
  }

  /** The parts of the device's history the caller may see for `permission` (measurements, design §3). */
  async visibleHistory(access: TenantAccess, permission: Permission, deviceId: string): Promise<Interval[]> {
    if (access.coversWholeTree(permission)) return [{ from: null, to: null }];
    const periods = await this.allPeriods(this.dataSource.manager, deviceId);
    return visibleHistory(
      access,
      permission,
      periods.map(({ assignment, unit }): PeriodRef => ({ validFrom: assignment.validFrom, validTo: assignment.validTo, unit })),
    );
  }

  private async periods(manager: EntityManager, deviceId: string, condition: string): Promise<AssignmentWithUnit[]> {
    const rows = await manager
      .createQueryBuilder(DeviceAssignmentEntity, 'a')
      .innerJoin('organization_units', 'u', 'u.organization_unit_id = a.organization_unit_id')
      .addSelect('u.ancestor_ids', 'ancestor_ids')
      .where(`a.device_id = :deviceId ${condition}`, { deviceId })
      .orderBy('a.valid_from', 'ASC')
      .getRawAndEntities<PeriodRow>();
    return rows.entities.map((assignment, index) => ({
      assignment,
      unit: { organizationUnitId: assignment.organizationUnitId, ancestorIds: rows.raw[index]?.ancestor_ids ?? [] },
    }));
  }
}
