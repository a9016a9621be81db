import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { TenantAccess } from '../../../shared/access/access.service';
import { ConstraintErrors } from '../../../shared/database/pg-errors';
import { ConflictError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { OrganizationUnitEntity } from '../../tenancy';
import { DeviceAssignmentEntity } from './device-assignment.entity';
import { DeviceEntity } from './device.entity';
import { deviceNotFound } from './device.reader';

/** The devices migration's partial unique index over non-retired devEuis (all tenants). */
const DEV_EUI_CONSTRAINT = 'devices_dev_eui_key';
const OPEN_PERIOD_CONSTRAINT = 'device_assignments_open_key';
const NO_OVERLAP_CONSTRAINT = 'device_assignments_no_overlap';

/** Never names the tenant that holds the devEui. */
export const duplicateDevEui = () =>
  new ConflictError('duplicate_dev_eui', 'A device with this devEui is already registered; retire it before registering the devEui again.');

/** Row access of the devices API: locks, unit checks and the constraint-to-error mapping. */
@Injectable()
export class DeviceRepository {
  /** The device, locked until the end of the transaction: commands on one device run one after another. */
  async lock(manager: EntityManager, deviceId: string): Promise<DeviceEntity> {
    const device = await manager.findOne(DeviceEntity, { where: { deviceId }, lock: { mode: 'pessimistic_write' } });
    if (!device) throw deviceNotFound();
    return device;
  }

  async find(manager: EntityManager, deviceId: string): Promise<DeviceEntity> {
    const device = await manager.findOneBy(DeviceEntity, { deviceId });
    if (!device) throw deviceNotFound();
    return device;
  }

  /** The most recent period (open or closed), for the ordering rules of a new one. */
  latestAssignment(manager: EntityManager, deviceId: string): Promise<DeviceAssignmentEntity | null> {
    return manager.findOne(DeviceAssignmentEntity, { where: { deviceId }, order: { validFrom: 'DESC' } });
  }

  /**
   * "Now" as the default start of a new period. Period bounds are kept at millisecond precision (what clients
   * send and JSON shows), so two moves within one millisecond start one millisecond apart instead of colliding.
   */
  async nowAfter(manager: EntityManager, latest: DeviceAssignmentEntity | null): Promise<Date> {
    const [{ now }] = await manager.query<[{ now: Date }]>(`SELECT date_trunc('milliseconds', clock_timestamp()) AS now`);
    if (latest?.validTo === null && now <= latest.validFrom) return new Date(latest.validFrom.getTime() + 1);
    if (latest?.validTo && now < latest.validTo) return latest.validTo;
    return now;
  }

  /** Closes the open period (if any) now, never before it started; null when the device was unassigned. */
  async endOpenPeriodNow(manager: EntityManager, deviceId: string): Promise<{ deviceAssignmentId: string; organizationUnitId: string } | null> {
    const [rows] = await manager.query<[{ device_assignment_id: string; organization_unit_id: string }[], number]>(
      `UPDATE device_assignments
          SET valid_to = greatest(date_trunc('milliseconds', clock_timestamp()), valid_from + interval '1 millisecond'), updated_at = clock_timestamp()
        WHERE device_id = $1 AND valid_to IS NULL
        RETURNING device_assignment_id, organization_unit_id`,
      [deviceId],
    );
    const ended = rows[0];
    return ended ? { deviceAssignmentId: ended.device_assignment_id, organizationUnitId: ended.organization_unit_id } : null;
  }

  /**
   * A unit of the caller's tenant named in a body or query: it must exist there and be visible to the caller,
   * else 400 `reference_not_found` at `path`.
   */
  async visibleUnit(manager: EntityManager, access: TenantAccess, organizationUnitId: string, path: string): Promise<OrganizationUnitEntity> {
    const unit = await manager.findOneBy(OrganizationUnitEntity, { tenantId: access.tenant.tenantId, organizationUnitId: organizationUnitId.toLowerCase() });
    if (!unit || !access.relationTo(unit)) {
      throw ValidationFailedError.single(path, 'reference_not_found', 'No visible organization unit of this tenant has this id.');
    }
    return unit;
  }

  /**
   * 409 `organization_unit_disabled` unless the unit, its ancestors and the tenant are active. The path is read
   * FOR SHARE, so a concurrent disable waits for this transaction.
   */
  async assertUnitActive(manager: EntityManager, access: TenantAccess, unit: OrganizationUnitEntity): Promise<void> {
    const path = await manager.query<{ status: string }[]>(
      `SELECT status FROM organization_units WHERE organization_unit_id = ANY($1::uuid[]) ORDER BY depth FOR SHARE`,
      [[...unit.ancestorIds, unit.organizationUnitId]],
    );
    if (access.tenant.status === 'disabled' || path.some((row) => row.status === 'disabled')) {
      throw new ConflictError('organization_unit_disabled', 'The organization unit is disabled (itself, an ancestor or its tenant).');
    }
  }
}

/**
 * Maps the database's guarantees to the API's answers, for the races the handlers' checks cannot see: a devEui
 * registered concurrently (409 `duplicate_dev_eui`) and overlapping or second open periods (409 `already_assigned`).
 */
const assignedConcurrently = () => new ConflictError('already_assigned', 'The device was assigned concurrently; read it again and retry.');
export const DEVICE_CONSTRAINTS: ConstraintErrors = {
  [DEV_EUI_CONSTRAINT]: duplicateDevEui,
  [OPEN_PERIOD_CONSTRAINT]: assignedConcurrently,
  [NO_OVERLAP_CONSTRAINT]: assignedConcurrently,
};
