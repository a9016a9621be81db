import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService, SqlPredicate, TenantAccess } from '../../../shared/access/access.service';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import type { FieldViolation } from '../../../shared/errors/error-codes';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { UserEntity } from '../../identity';
import { MembershipEntity, OrganizationUnitEntity } from '../../tenancy';
import { MembershipResponse } from '../dto/membership.response.dto';
import { findUnitRef, loadMembershipRecords } from '../persistence/membership.repository';
import { targetVisible } from '../domain/visible-membership';
import { ListMembershipsQuery } from './list-memberships.query';
import { runTenantList, searchTerm } from '../../../shared/pagination/tenant-list';

/**
 * A tenant's grants the caller may read, oldest first. Grants on units are filtered in SQL by the
 * caller's accessible set for `memberships:read`; tenant-level grants only show with whole-tenant scope.
 */
@QueryHandler(ListMembershipsQuery)
export class ListMembershipsHandler implements IQueryHandler<ListMembershipsQuery, Page<MembershipResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
    private readonly accessService: AccessService,
  ) {}

  async execute({ principal, tenantNumber, params }: ListMembershipsQuery): Promise<Page<MembershipResponse>> {
    const filters = {
      status: params.status ?? null,
      q: searchTerm(params.q),
      userId: params.userId?.toLowerCase() ?? null,
      role: params.role ?? null,
      organizationUnitId: params.organizationUnitId?.toLowerCase() ?? null,
    };
    const pageRequest = {
      actorId: principal.userId,
      scope: `tenants/${tenantNumber}/memberships`,
      filters,
      limit: params.limit,
      cursor: params.cursor,
    };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(principal, tenantNumber),
      permission: (access) => access.requireAnywhere('memberships:read'),
      references: (access) => assertReferences(this.dataSource.manager, access, filters),
      query: async (access) => {
        const query = this.dataSource
          .createQueryBuilder(MembershipEntity, 'm')
          .innerJoin(UserEntity, 'u', 'u.user_id = m.user_id')
          .leftJoin(OrganizationUnitEntity, 'ou', 'ou.organization_unit_id = m.organization_unit_id')
          .where('m.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        if (!access.coversWholeTree('memberships:read')) {
          const scope = named(access.accessibleUnits('ou', 'memberships:read', 0), 'membershipScope');
          query.andWhere(`m.organization_unit_id IS NOT NULL AND ${scope.sql}`, scope.params);
        }
        if (filters.status) query.andWhere('m.status = :status', { status: filters.status });
        if (filters.userId) query.andWhere('m.user_id = :userId', { userId: filters.userId });
        if (filters.role) query.andWhere('m.role = :role', { role: filters.role });
        if (filters.organizationUnitId === 'null') query.andWhere('m.organization_unit_id IS NULL');
        else if (filters.organizationUnitId) query.andWhere('m.organization_unit_id = :unitId', { unitId: filters.organizationUnitId });
        if (filters.q) {
          query.andWhere(`(u.display_name ILIKE :pattern ESCAPE '\\' OR u.email ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(filters.q) });
        }

        const page = await this.paginator.ascending(query, { createdAt: 'm.created_at', id: 'm.membership_id' }, pageRequest);
        const records = await loadMembershipRecords(
          this.dataSource.manager,
          page.items.map((item) => item.membershipId),
        );
        return { ...page, items: records.map((record) => MembershipResponse.of(record)) };
      },
    });
  }
}

/** A `userId` or `organizationUnitId` filter naming nothing the caller can see (or a unit it does not cover) is a 400. */
async function assertReferences(
  manager: EntityManager,
  access: TenantAccess,
  filters: { userId: string | null; organizationUnitId: string | null },
): Promise<void> {
  const violations: FieldViolation[] = [];
  if (filters.userId) {
    const [user] = await manager.query<unknown[]>(`SELECT 1 FROM users WHERE user_id = $1`, [filters.userId]);
    if (!user) violations.push({ path: 'query.userId', rule: 'reference_not_found', message: 'No such user.' });
  }
  if (filters.organizationUnitId && filters.organizationUnitId !== 'null') {
    const unit = await findUnitRef(manager, access.tenant.tenantId, filters.organizationUnitId);
    // A unit the caller only navigates to (an ancestor) names no grant it could see: the same 400 as a random id.
    if (!unit || !targetVisible(access, { unit, includeDescendants: false })) {
      violations.push({ path: 'query.organizationUnitId', rule: 'reference_not_found', message: 'No such organization unit in this tenant.' });
    }
  }
  if (violations.length > 0) throw new ValidationFailedError(violations);
}

/** The access layer's positional predicate (`$1::uuid[]`) as TypeORM named parameters. */
function named(predicate: SqlPredicate, prefix: string): { sql: string; params: Record<string, unknown> } {
  const sql = predicate.sql.replace(/\$(\d+)::uuid\[\]/g, (_match, n: string) => `CAST(:${prefix}${n} AS uuid[])`);
  if (sql.includes('$')) throw new Error(`Unexpected parameter in an access predicate: ${predicate.sql}`);
  return { sql, params: Object.fromEntries(predicate.params.map((value, index) => [`${prefix}${index + 1}`, value])) };
}
