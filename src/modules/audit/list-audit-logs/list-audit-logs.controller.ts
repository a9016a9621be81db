import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../../shared/auth/principal';
import { GlobalAuditEventPage } from '../domain/audit-event.response.dto';
import { ListAuditLogsParams } from './list-audit-logs.request.dto';
import { ListAuditLogsQuery } from './list-audit-logs.query';

@ApiTags('audit')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/audit-logs')
export class ListAuditLogsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: GlobalAuditEventPage, description: 'All tenants and platform events, newest first; `tenantId` narrows to one tenant.' })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListAuditLogsParams): Promise<GlobalAuditEventPage> {
    return this.queryBus.execute(new ListAuditLogsQuery(principal.userId, params));
  }
}
