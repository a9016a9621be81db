import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { MembershipRecord, MembershipRepository, targetOf } from './membership.repository';

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
    const record = await this.memberships.find(manager, membershipId, options);
    let access: TenantAccess;
    try {
      access = await this.access.tenantById(principal, record.tenantId);
    } catch (error) {
      if (error instanceof ResourceNotFoundError) throw new ResourceNotFoundError('membership');
      throw error;
    }
    const { unit } = targetOf(record);
    if (unit && access.relationTo(unit) === null) throw new ResourceNotFoundError('membership');
    return { record, access };
  }
}
