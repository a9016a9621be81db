import { Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../../shared/auth/principal';
import { TenantNumberParam } from '../tenant-number.param';
import { TenantResponse } from '../tenant.response.dto';
import { ChangeTenantStatusCommand } from './change-tenant-status.command';

@ApiTags('tenants')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/tenants')
export class ChangeTenantStatusController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':tenantNumber/disable')
  @HttpCode(200)
  @ApiOkResponse({ type: TenantResponse, description: 'Grants of non-admins stop working at once.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already in that state.' })
  @ApiNotFoundResponse({ description: 'No such tenant.' })
  disable(@CurrentPrincipal() principal: Principal, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.commandBus.execute(new ChangeTenantStatusCommand(principal, tenantNumber, 'disabled'));
  }

  @Post(':tenantNumber/reactivate')
  @HttpCode(200)
  @ApiOkResponse({ type: TenantResponse, description: 'Reactivated.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already in that state.' })
  @ApiNotFoundResponse({ description: 'No such tenant.' })
  reactivate(@CurrentPrincipal() principal: Principal, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.commandBus.execute(new ChangeTenantStatusCommand(principal, tenantNumber, 'active'));
  }
}
