import { Query } from '@nestjs/cqrs';
import type { UserResponse } from '../../identity/dto/user.response.dto';

export class GetUserQuery extends Query<UserResponse> {
  constructor(readonly userId: string) {
    super();
  }
}
