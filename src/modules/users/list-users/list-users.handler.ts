import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { UserEntity, UserResponse } from '../../identity';
import { ListUsersQuery } from './list-users.query';
import { searchTerm } from '../../../shared/pagination/tenant-list';

/** All users, oldest first, filtered by status and a case-insensitive search. */
@QueryHandler(ListUsersQuery)
export class ListUsersHandler implements IQueryHandler<ListUsersQuery, Page<UserResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ actorId, params }: ListUsersQuery): Promise<Page<UserResponse>> {
    // An empty search matches everything, so it is the same query (and cursor binding) as no search.
    const q = searchTerm(params.q);
    const status = params.status ?? null;
    const query = this.dataSource.getRepository(UserEntity).createQueryBuilder('u');
    if (status) query.andWhere('u.status = :status', { status });
    if (q) {
      query.andWhere(
        `(u.username ILIKE :pattern ESCAPE '\\' OR u.email ILIKE :pattern ESCAPE '\\' OR u.display_name ILIKE :pattern ESCAPE '\\')`,
        { pattern: containsPattern(q) },
      );
    }
    const page = await this.paginator.ascending(
      query,
      { createdAt: 'u.created_at', id: 'u.user_id' },
      { actorId, scope: 'users', filters: { status, q }, limit: params.limit, cursor: params.cursor },
    );
    return { ...page, items: page.items.map((user) => UserResponse.of(user)) };
  }
}
