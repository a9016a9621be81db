import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { GrantTarget } from './membership-scope';
import { MembershipRecord, MembershipRepository, targetOf } from '../persistence/membership.repository';
import { resolveResource } from '../../../shared/access/resolve-resource';

/**
 * Memberships are org-scoped by their target: a grant exists for a caller only when the caller's own grants
 * cover its target (a unit in the caller's accessible set; a tenant-level target needs a tenant-level grant).
 * A unit the caller can only navigate to (an ancestor), a sibling, or another tenant is not covered.
 */
export function targetVisible(access: TenantAccess, target: GrantTarget): boolean {
  if (access.isPlatformAdmin) return true;
  if (target.unit) return access.covers('organization-units:read', target.unit);
  return access.grants.some((grant) => grant.organizationUnitId === null);
}

/**
 * The existence rule for `/v1/memberships/{id}`: a grant in a tenant the caller cannot see, or whose target
 * the caller does not cover, answers exactly the 404 of a missing one. A visible grant the caller may not read
 * or change is a 403 (checked by the handler).
 *
 * Runs on the pool, never inside a transaction: a command resolves the grant and the caller's access first,
 * then opens its transaction and locks the row there, so it never holds a connection while waiting for another.
 * A grant's tenant and target never change, so the access resolved before the lock still applies to the row.
 */
@Injectable()
export class VisibleMembership {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly memberships: MembershipRepository,
  ) {}

  async load(principal: Principal, membershipId: string): Promise<{ record: MembershipRecord; access: TenantAccess }> {
    const { resource: record, access } = await resolveResource(this.access, principal, {
      load: () => this.memberships.find(this.dataSource.manager, membershipId),
      notFound: () => new ResourceNotFoundError('membership'),
      visible: (tenantAccess, found) => targetVisible(tenantAccess, targetOf(found)),
    });
    return { record, access };
  }
}
