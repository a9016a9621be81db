import { Query } from '@nestjs/cqrs';
import type { Page } from '../../../shared/pagination/page';
import type { UserResponse } from '../../identity';
import type { ListUsersParams } from '../dto/list-users.request.dto';

export class ListUsersQuery extends Query<Page<UserResponse>> {
  constructor(
    readonly actorId: string,
    readonly params: ListUsersParams,
  ) {
    super();
  }
}
