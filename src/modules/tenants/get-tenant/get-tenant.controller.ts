import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { TenantNumberParam } from '../tenant-number.param';
import { TenantResponse } from '../tenant.response.dto';
import { GetTenantQuery } from './get-tenant.query';

@ApiTags('tenants')
@ApiBearerAuth()
@Controller('v1/tenants')
export class GetTenantController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':tenantNumber')
  @RequirePermission('tenant:read')
  @ApiOkResponse({ type: TenantResponse })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in (`resourceType` `tenant`).' })
  get(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.queryBus.execute(new GetTenantQuery(caller, tenantNumber));
  }
}
