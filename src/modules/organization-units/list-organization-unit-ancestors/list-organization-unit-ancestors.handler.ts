import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { OrganizationUnitEntity } from '../../tenancy';
import { namedPredicate } from '../../../shared/access/named-predicate';
import { OrganizationUnitReader } from '../persistence/organization-unit.reader';
import { OrganizationUnitAncestors } from '../dto/organization-unit-ancestors.response.dto';
import { ListOrganizationUnitAncestorsQuery } from './list-organization-unit-ancestors.query';

/** The breadcrumb of a visible unit: its visible ancestors, root first, from the materialized path. */
@QueryHandler(ListOrganizationUnitAncestorsQuery)
export class ListOrganizationUnitAncestorsHandler implements IQueryHandler<ListOrganizationUnitAncestorsQuery, OrganizationUnitAncestors> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: OrganizationUnitReader,
  ) {}

  async execute({ caller, organizationUnitId }: ListOrganizationUnitAncestorsQuery): Promise<OrganizationUnitAncestors> {
    const { access, unit } = await this.reader.resolve(caller.principal, organizationUnitId);
    if (unit.ancestorIds.length === 0) return { items: [] };
    const visible = namedPredicate(access.visibleUnits('u', caller.permission, 0), 'visible');
    const ancestors = await this.dataSource
      .getRepository(OrganizationUnitEntity)
      .createQueryBuilder('u')
      .where('u.tenant_id = :tenantId', { tenantId: unit.tenantId })
      .andWhere('u.organization_unit_id = ANY(:ids)', { ids: unit.ancestorIds })
      .andWhere(visible.sql, visible.params)
      .orderBy('u.depth', 'ASC')
      .getMany();
    return { items: await this.reader.present(access, ancestors) };
  }
}
