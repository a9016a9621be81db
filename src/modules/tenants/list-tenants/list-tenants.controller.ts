import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../../shared/auth/principal';
import { ListTenantsQuery } from './list-tenants.query';
import { ListTenantsParams } from './list-tenants.request.dto';
import { TenantPage } from './tenant-page.response.dto';

@ApiTags('tenants')
@ApiBearerAuth()
@Controller('v1/tenants')
export class ListTenantsController {
  constructor(private readonly queryBus: QueryBus) {}

  /** Any authenticated caller: the list itself is scoped to the caller's effective grants. */
  @Get()
  @ApiOkResponse({
    type: TenantPage,
    description: 'Platform admins: every tenant. Others: active tenants where they hold an effective grant. Ascending by (createdAt, tenantId).',
  })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListTenantsParams): Promise<TenantPage> {
    return this.queryBus.execute(new ListTenantsQuery(principal, params));
  }
}
