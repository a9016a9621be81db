import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { OrganizationUnitEntity } from '../../tenancy';
import { namedPredicate } from '../../../shared/access/named-predicate';
import { OrganizationUnitReader } from '../persistence/organization-unit.reader';
import { OrganizationUnitRepository } from '../persistence/organization-unit.repository';
import { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';
import { ListOrganizationUnitsQuery } from './list-organization-units.query';
import { runTenantList, searchTerm } from '../../../shared/pagination/tenant-list';

/**
 * One level of the visible tree. With `parentOrganizationUnitId`: the visible children of that
 * (visible) unit. Without it: the visible roots; the visible set always holds every ancestor of a visible unit,
 * so the topmost visible units of any caller, unit-scoped ones included, are roots. Without a parent but with
 * a non-empty `q`: every visible unit matching it (an empty `q` is no filter: the roots). Visibility is a SQL predicate; nothing is filtered in memory.
 */
@QueryHandler(ListOrganizationUnitsQuery)
export class ListOrganizationUnitsHandler implements IQueryHandler<ListOrganizationUnitsQuery, Page<OrganizationUnitResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
    private readonly units: OrganizationUnitRepository,
    private readonly reader: OrganizationUnitReader,
  ) {}

  async execute({ caller, tenantNumber, params }: ListOrganizationUnitsQuery): Promise<Page<OrganizationUnitResponse>> {
    const parentId = params.parentOrganizationUnitId?.toLowerCase() ?? null;
    const status = params.status ?? null;
    const q = searchTerm(params.q);
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/organization-units`,
      filters: { parentOrganizationUnitId: parentId, status, q },
      limit: params.limit,
      cursor: params.cursor,
    };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.requireAnywhere(caller.permission),
      references: async (access) => {
        if (!parentId) return;
        const parent = await this.units.findInTenant(this.dataSource.manager, access.tenant.tenantId, parentId);
        if (!parent || !access.relationTo(parent, caller.permission)) {
          throw ValidationFailedError.single(
            'query.parentOrganizationUnitId',
            'reference_not_found',
            'No visible organization unit of this tenant has this id.',
          );
        }
      },
      query: async (access) => {
        const visible = namedPredicate(access.visibleUnits('u', caller.permission, 0), 'visible');
        const query = this.dataSource
          .getRepository(OrganizationUnitEntity)
          .createQueryBuilder('u')
          .where('u.tenant_id = :tenantId', { tenantId: access.tenant.tenantId })
          .andWhere(visible.sql, visible.params);
        if (parentId) query.andWhere('u.parent_organization_unit_id = :parentId', { parentId });
        else if (q === null) query.andWhere('u.parent_organization_unit_id IS NULL');
        if (status) query.andWhere('u.status = :status', { status });
        if (q) query.andWhere(`(u.key ILIKE :pattern ESCAPE '\\' OR u.name ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(q) });
        const page = await this.paginator.ascending(query, { createdAt: 'u.created_at', id: 'u.organization_unit_id' }, pageRequest);
        return { ...page, items: await this.reader.present(access, page.items) };
      },
    });
  }
}
