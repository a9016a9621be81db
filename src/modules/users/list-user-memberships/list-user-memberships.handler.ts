import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import type { Page } from '../../../shared/pagination/page';
import { UserRepository } from '../domain/user.repository';
import { ListUserMembershipsQuery } from './list-user-memberships.query';
import type { UserMembershipResponse } from './user-membership.response.dto';

/**
 * Design §5.3: a user's membership history in every tenant. Tenancy does not exist yet, so every known user has
 * none; the request (cursor included) is still checked as the real list will check it.
 */
@QueryHandler(ListUserMembershipsQuery)
export class ListUserMembershipsHandler implements IQueryHandler<ListUserMembershipsQuery, Page<UserMembershipResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
    private readonly users: UserRepository,
  ) {}

  async execute({ actorId, userId, params }: ListUserMembershipsQuery): Promise<Page<UserMembershipResponse>> {
    this.paginator.verify({
      actorId,
      scope: `users/${userId}/memberships`,
      filters: { status: params.status ?? null, tenantId: params.tenantId?.toLowerCase() ?? null },
      limit: params.limit,
      cursor: params.cursor,
    });
    await this.users.find(this.dataSource.manager, userId);
    return { items: [], totalCount: 0 };
  }
}
