import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { MeResponse } from '../dto/me.response.dto';

export class GetMeQuery extends Query<MeResponse> {
  constructor(
    readonly principal: Principal,
    readonly tenantNumber: number | undefined,
  ) {
    super();
  }
}
