import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource, In, IsNull } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { namedPredicate } from '../../../shared/access/named-predicate';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { DeviceTypeEntity } from '../../device-types';
import { DeviceAssignmentEntity } from '../persistence/device-assignment.entity';
import { DeviceEntity } from '../persistence/device.entity';
import { DeviceRepository } from '../persistence/device.repository';
import { DeviceResponse } from '../dto/device.response.dto';
import { ListDevicesQuery } from './list-devices.query';
import { runTenantList, searchTerm } from '../../../shared/pagination/tenant-list';

/**
 * The devices the caller sees: current unit accessible, or unassigned with a tenant-level
 * grant. The open period is joined (at most one per device: a partial unique index), so visibility and the unit
 * filter are SQL predicates; nothing is filtered in memory.
 */
@QueryHandler(ListDevicesQuery)
export class ListDevicesHandler implements IQueryHandler<ListDevicesQuery, Page<DeviceResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
    private readonly devices: DeviceRepository,
  ) {}

  async execute({ caller, tenantNumber, params }: ListDevicesQuery): Promise<Page<DeviceResponse>> {
    const deviceTypeId = params.deviceTypeId?.toLowerCase() ?? null;
    const includeDescendants = params.includeDescendants ?? true;
    const q = searchTerm(params.q);
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/devices`,
      filters: {
        status: params.status ?? null,
        deviceTypeId,
        organizationUnitId: params.organizationUnitId?.toLowerCase() ?? null,
        includeDescendants,
        devEui: params.devEui ?? null,
        q,
      },
      limit: params.limit,
      cursor: params.cursor,
    };
    const manager = this.dataSource.manager;
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.requireAnywhere(caller.permission),
      references: async (access) => {
        if (deviceTypeId && !(await manager.existsBy(DeviceTypeEntity, { tenantId: access.tenant.tenantId, deviceTypeId }))) {
          throw ValidationFailedError.single('query.deviceTypeId', 'reference_not_found', 'No device type of this tenant has this id.');
        }
        return params.organizationUnitId
          ? await this.devices.visibleUnit(manager, access, params.organizationUnitId, 'query.organizationUnitId')
          : null;
      },
      query: async (access, unit) => {
        const accessible = namedPredicate(access.accessibleUnits('u', caller.permission, 0), 'visible');
        const unassignedVisible = access.can(caller.permission, 'T');
        const query = this.dataSource
          .getRepository(DeviceEntity)
          .createQueryBuilder('d')
          .leftJoin('device_assignments', 'a', 'a.device_id = d.device_id AND a.valid_to IS NULL')
          .leftJoin('organization_units', 'u', 'u.organization_unit_id = a.organization_unit_id')
          .where('d.tenant_id = :tenantId', { tenantId: access.tenant.tenantId })
          .andWhere(`((a.device_assignment_id IS NULL AND :unassignedVisible) OR (a.device_assignment_id IS NOT NULL AND ${accessible.sql}))`, {
            ...accessible.params,
            unassignedVisible,
          });
        if (params.status) query.andWhere('d.status = :status', { status: params.status });
        if (deviceTypeId) query.andWhere('d.device_type_id = :deviceTypeId', { deviceTypeId });
        if (params.devEui) query.andWhere('d.dev_eui = :devEui', { devEui: params.devEui });
        if (q) {
          query.andWhere(`(d.name ILIKE :pattern ESCAPE '\\' OR d.dev_eui LIKE :eui ESCAPE '\\')`, {
            pattern: containsPattern(q),
            eui: `${q.toUpperCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`,
          });
        }
        if (unit) {
          query.andWhere(
            includeDescendants ? '(u.organization_unit_id = :unitId OR u.ancestor_ids @> ARRAY[CAST(:unitId AS uuid)])' : 'u.organization_unit_id = :unitId',
            { unitId: unit.organizationUnitId },
          );
        }

        const page = await this.paginator.ascending(query, { createdAt: 'd.created_at', id: 'd.device_id' }, pageRequest);
        const ids = page.items.map((device) => device.deviceId);
        const open = ids.length ? await manager.findBy(DeviceAssignmentEntity, { deviceId: In(ids), validTo: IsNull() }) : [];
        const openByDevice = new Map(open.map((assignment) => [assignment.deviceId, assignment]));
        return { ...page, items: page.items.map((device) => DeviceResponse.of(device, openByDevice.get(device.deviceId) ?? null)) };
      },
    });
  }
}
