import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import type { Page } from '../../../shared/pagination/page';
import { loadMembershipRecords } from '../../memberships';
import { MembershipEntity } from '../../tenancy';
import { UserRepository } from '../persistence/user.repository';
import { ListUserMembershipsQuery } from './list-user-memberships.query';
import { UserMembershipResponse } from '../dto/user-membership.response.dto';

/**
 * A user's membership history, every tenant and status, oldest first. `tenantId` is a plain
 * filter: platform admins see every tenant, and a tenant without grants of the user is an empty page.
 */
@QueryHandler(ListUserMembershipsQuery)
export class ListUserMembershipsHandler implements IQueryHandler<ListUserMembershipsQuery, Page<UserMembershipResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
    private readonly users: UserRepository,
  ) {}

  async execute({ actorId, userId, params }: ListUserMembershipsQuery): Promise<Page<UserMembershipResponse>> {
    const filters = { status: params.status ?? null, tenantId: params.tenantId?.toLowerCase() ?? null };
    const pageRequest = { actorId, scope: `users/${userId}/memberships`, filters, limit: params.limit, cursor: params.cursor };
    // A bad cursor is a 400 before the user's 404.
    this.paginator.verify(pageRequest);
    await this.users.find(this.dataSource.manager, userId);

    const query = this.dataSource.createQueryBuilder(MembershipEntity, 'm').where('m.user_id = :userId', { userId });
    if (filters.status) query.andWhere('m.status = :status', { status: filters.status });
    if (filters.tenantId) query.andWhere('m.tenant_id = :tenantId', { tenantId: filters.tenantId });
    const page = await this.paginator.ascending(query, { createdAt: 'm.created_at', id: 'm.membership_id' }, pageRequest);
    const records = await loadMembershipRecords(
      this.dataSource.manager,
      page.items.map((item) => item.membershipId),
    );
    return { ...page, items: records.map((record) => UserMembershipResponse.of(record)) };
  }
}
