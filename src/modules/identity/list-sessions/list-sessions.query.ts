import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { SessionResponse } from '../dto/session.response.dto';

export class ListSessionsQuery extends Query<{ items: SessionResponse[] }> {
  constructor(readonly principal: Principal) {
    super();
  }
}
