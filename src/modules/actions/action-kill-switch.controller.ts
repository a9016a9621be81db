import { Body, Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { ApiDocs } from '../../shared/http/route-docs';
import { Route, TENANT_NOT_FOUND } from '../../shared/http/routes';
import { TenantNumberParam } from '../tenants';
import { ChangeKillSwitchCommand } from './change-kill-switch/change-kill-switch.command';
import { KillSwitchResponse, PauseActionsRequest } from './dto/kill-switch.dto';
import { KILL_SWITCH_DOCS } from './email-deliveries.docs';
import { GetKillSwitchQuery } from './get-kill-switch/get-kill-switch.query';

@ApiTags('flow actions')
@ApiBearerAuth()
@ApiDocs(KILL_SWITCH_DOCS)
@Controller('v1')
export class ActionKillSwitchController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', 'tenants/:tenantNumber/action-kill-switch', {
    operationId: 'tenantActionKillSwitch_get',
    permission: 'actions:read',
    type: KillSwitchResponse,
    notFound: TENANT_NOT_FOUND,
    forbidden: '`missing_permission`: needs `actions:read` through a tenant-level grant.',
  })
  get(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number): Promise<KillSwitchResponse> {
    return this.queryBus.execute(new GetKillSwitchQuery(caller, tenantNumber));
  }

  @Route('post', 'tenants/:tenantNumber/action-kill-switch/pause', {
    operationId: 'tenantActionKillSwitch_pause',
    permission: 'actions:control',
    status: 200,
    type: KillSwitchResponse,
    notFound: TENANT_NOT_FOUND,
    forbidden: '`missing_permission`: needs `actions:control` through a tenant-level grant.',
  })
  pause(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Body() body: PauseActionsRequest): Promise<KillSwitchResponse> {
    return this.commandBus.execute(new ChangeKillSwitchCommand(caller, tenantNumber, 'pause', body.reason ?? null));
  }

  @Route('post', 'tenants/:tenantNumber/action-kill-switch/resume', {
    operationId: 'tenantActionKillSwitch_resume',
    permission: 'actions:control',
    status: 200,
    type: KillSwitchResponse,
    notFound: TENANT_NOT_FOUND,
    forbidden: '`missing_permission`: needs `actions:control` through a tenant-level grant.',
  })
  resume(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number): Promise<KillSwitchResponse> {
    return this.commandBus.execute(new ChangeKillSwitchCommand(caller, tenantNumber, 'resume', null));
  }
}
