import { Body, Controller, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { TenantNumberParam } from '../tenant-number.param';
import { TenantResponse } from '../tenant.response.dto';
import { UpdateTenantCommand } from './update-tenant.command';
import { UpdateTenantRequest } from './update-tenant.request.dto';

@ApiTags('tenants')
@ApiBearerAuth()
@Controller('v1/tenants')
export class UpdateTenantController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch(':tenantNumber')
  @RequirePermission('tenant:write')
  @ApiOkResponse({ type: TenantResponse })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  update(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: UpdateTenantRequest,
  ): Promise<TenantResponse> {
    return this.commandBus.execute(new UpdateTenantCommand(caller, tenantNumber, { ...body }));
  }
}
