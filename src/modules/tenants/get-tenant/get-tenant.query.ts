import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { TenantResponse } from '../dto/tenant.response.dto';

export class GetTenantQuery extends Query<TenantResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
  ) {
    super();
  }
}
