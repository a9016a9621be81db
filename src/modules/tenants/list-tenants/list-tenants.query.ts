import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { Page } from '../../../shared/pagination/page';
import type { TenantResponse } from '../dto/tenant.response.dto';
import type { ListTenantsParams } from '../dto/list-tenants.request.dto';

export class ListTenantsQuery extends Query<Page<TenantResponse>> {
  constructor(
    readonly principal: Principal,
    readonly params: ListTenantsParams,
  ) {
    super();
  }
}
