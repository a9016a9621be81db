import { Query } from '@nestjs/cqrs';
import type { UserResponse } from '../../identity';

export class GetUserQuery extends Query<UserResponse> {
  constructor(readonly userId: string) {
    super();
  }
}
