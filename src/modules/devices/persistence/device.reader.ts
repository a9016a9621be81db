import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService, TenantAccess, UnitRef } from '../../../shared/access/access.service';
import type { Permission } from '../../../shared/access/permissions';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { DeviceAssignmentEntity } from './device-assignment.entity';
import { DeviceEntity } from './device.entity';
import { Interval, PeriodRef, visibleHistory } from '../domain/device-visibility';
import { resolveResource } from '../../../shared/access/resolve-resource';
import { preparedQuery } from '../../../shared/database/prepared-query';

/** The 404 of every device the caller cannot see: missing, in another tenant, or outside its scope. */
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

/** The device's columns under their entity names, its open period's columns (all null without one), `extra`. */
type DeviceRow<Extra> = DeviceEntity & {
  assignment_id: string | null;
  organization_unit_id: string | null;
  valid_from: Date | null;
  valid_to: Date | null;
  assigned_at: Date | null;
  assigned_by_user_id: string | null;
  assignment_created_at: Date | null;
  assignment_updated_at: Date | null;
  ancestor_ids: string[] | null;
  extra: Extra;
};

const resolveStatements = new Map<string | undefined, string>();

/**
 * The statement of `DeviceReader.resolve` (parameter `$1`: the device id), with `extra` over `d` if given. Built once
 * per `extra`: the same string object each time, so looking up its prepared statement does not hash it again.
 */
export function resolveDeviceSql(extra?: string): string {
  let sql = resolveStatements.get(extra);
  if (sql === undefined) {
    sql = buildResolveDeviceSql(extra);
    resolveStatements.set(extra, sql);
  }
  return sql;
}

function buildResolveDeviceSql(extra?: string): string {
  return `
  SELECT d.device_id AS "deviceId", d.tenant_id AS "tenantId", d.device_type_id AS "deviceTypeId", d.dev_eui AS "devEui",
         d.name, d.metadata, d.status, d.retired_at AS "retiredAt", d.last_seen_at AS "lastSeenAt", d.created_at AS "createdAt", d.updated_at AS "updatedAt",
         a.device_assignment_id AS assignment_id, a.organization_unit_id, a.valid_from, a.valid_to, a.assigned_at,
         a.assigned_by_user_id, a.created_at AS assignment_created_at, a.updated_at AS assignment_updated_at,
         u.ancestor_ids${extra ? `,
         ${extra} AS extra` : ''}
    FROM devices d
    LEFT JOIN device_assignments a ON a.device_id = d.device_id AND a.valid_to IS NULL
    LEFT JOIN organization_units u ON u.organization_unit_id = a.organization_unit_id
   WHERE d.device_id = $1`;
}

/**
 * Reads devices as a caller sees them: visible iff the current unit is in the caller's
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
   * visibility; the handler still calls `access.require(permission, unit)` (403 for a visible device). `extra`, a
   * SQL expression over the device `d`, is read in the same round trip and returned as `extra` (only for a device
   * the caller sees).
   */
  async resolve<Extra = never>(
    principal: Principal,
    deviceId: string,
    manager: EntityManager = this.dataSource.manager,
    extra?: string,
  ): Promise<ResolvedDevice & { extra: Extra }> {
    const { resource, access } = await resolveResource(this.accessService, principal, {
      load: async () => {
        // One round trip for the device, its open period (at most one: a partial unique index) and that unit's path.
        // Plain SQL: this is on the path of every device-addressed request.
        // Outside a transaction it is a prepared statement on the pool (planned once per connection).
        const sql = resolveDeviceSql(extra);
        const [row] =
          manager === this.dataSource.manager
            ? await preparedQuery<DeviceRow<Extra>>(this.dataSource, sql, [deviceId])
            : await manager.query<DeviceRow<Extra>[]>(sql, [deviceId]);
        if (!row) return null;
        const { extra: extraValue, assignment_id, organization_unit_id, valid_from, valid_to, assigned_at, assigned_by_user_id, assignment_created_at, assignment_updated_at, ancestor_ids, ...device } = row;
        const current = assignment_id
          ? {
              assignment: Object.assign(new DeviceAssignmentEntity(), {
                deviceAssignmentId: assignment_id,
                tenantId: device.tenantId,
                deviceId: device.deviceId,
                organizationUnitId: organization_unit_id,
                validFrom: valid_from,
                validTo: valid_to,
                assignedAt: assigned_at,
                assignedByUserId: assigned_by_user_id,
                createdAt: assignment_created_at,
                updatedAt: assignment_updated_at,
              }),
              unit: { organizationUnitId: organization_unit_id as string, ancestorIds: ancestor_ids ?? [] },
            }
          : null;
        return { tenantId: device.tenantId, device: Object.assign(new DeviceEntity(), device), current, extra: extraValue as Extra };
      },
      notFound: deviceNotFound,
      visible: (tenantAccess, { current }) => this.isVisible(tenantAccess, current),
    });
    return { access, device: resource.device, current: resource.current, extra: resource.extra };
  }

  /** Current unit accessible, or unassigned with a tenant-level grant. */
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

  /** The parts of the device's history the caller may see for `permission` (measurements). */
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
