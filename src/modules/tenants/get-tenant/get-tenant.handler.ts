import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { TenantResponse } from '../dto/tenant.response.dto';
import { GetTenantQuery } from './get-tenant.query';

@QueryHandler(GetTenantQuery)
export class GetTenantHandler implements IQueryHandler<GetTenantQuery, TenantResponse> {
  constructor(private readonly access: AccessService) {}

  async execute({ caller, tenantNumber }: GetTenantQuery): Promise<TenantResponse> {
    const access = await this.access.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    return TenantResponse.of(access.tenant);
  }
}
