import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { MembershipRecord, MembershipRepository, targetOf } from './membership.repository';
import { resolveResource } from '../../../shared/access/resolve-resource';

/**
 * Design §2 existence rule for `/v1/memberships/{id}`: a grant in a tenant the caller cannot see, or on a unit
 * outside the caller's view, answers exactly the 404 of a missing one. A visible grant the caller may not
 * read or change is a 403 (checked by the handler).
 */
@Injectable()
export class VisibleMembership {
  constructor(
    private readonly access: AccessService,
    private readonly memberships: MembershipRepository,
  ) {}

  async load(
    principal: Principal,
    manager: EntityManager,
    membershipId: string,
    options: { lock?: boolean } = {},
  ): Promise<{ record: MembershipRecord; access: TenantAccess }> {
    const { resource: record, access } = await resolveResource(this.access, principal, {
      load: () => this.memberships.find(manager, membershipId, options),
      notFound: () => new ResourceNotFoundError('membership'),
      visible: (tenantAccess, found) => {
        const { unit } = targetOf(found);
        return !unit || tenantAccess.relationTo(unit) !== null;
      },
    });
    return { record, access };
  }
}
