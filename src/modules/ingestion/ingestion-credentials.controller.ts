import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../shared/auth/principal';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { CreateIngestionCredentialCommand } from './create-ingestion-credential/create-ingestion-credential.command';
import { CreateIngestionCredentialRequest, ListIngestionCredentialsParams, ListTenantIngestionCredentialsParams } from './dto/ingestion-credential.request.dto';
import { GetIngestionCredentialQuery } from './get-ingestion-credential/get-ingestion-credential.query';
import { ListIngestionCredentialsQuery, ListTenantIngestionCredentialsQuery } from './list-ingestion-credentials/list-ingestion-credentials.query';
import { RevokeIngestionCredentialCommand } from './revoke-ingestion-credential/revoke-ingestion-credential.command';
import {
  CreatedIngestionCredentialResponse,
  IngestionCredentialPage,
  IngestionCredentialResponse,
} from './dto/ingestion-credential.response.dto';

@ApiTags('ingestion')
@ApiBearerAuth()
@Controller('v1')
export class IngestionCredentialsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get('tenants/:tenantNumber/ingestion-credentials')
  @OperationId('ListTenantIngestionCredentialsController_list')
  @RequirePermission('ingestion:manage')
  @ApiOkResponse({ type: IngestionCredentialPage, description: 'Ascending by (createdAt, ingestionCredentialId); never the token.' })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs `ingestion:manage` through a tenant-level grant.' })
  listTenant(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListTenantIngestionCredentialsParams,
  ): Promise<IngestionCredentialPage> {
    return this.queryBus.execute(new ListTenantIngestionCredentialsQuery(caller, tenantNumber, params));
  }

  @Post('tenants/:tenantNumber/ingestion-credentials')
  @OperationId('CreateTenantIngestionCredentialController_create')
  @RequirePermission('ingestion:manage')
  @ApiCreatedResponse({ type: CreatedIngestionCredentialResponse, description: '`Location: /v1/ingestion-credentials/{id}`; `token` appears only here.' })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs `ingestion:manage` through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`max_credentials`: the tenant already holds 10 active credentials.' })
  async createTenant(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateIngestionCredentialRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreatedIngestionCredentialResponse> {
    const created = await this.commandBus.execute(new CreateIngestionCredentialCommand(caller.principal, { tenantNumber, caller }, body));
    res.location(`/v1/ingestion-credentials/${created.ingestionCredentialId}`);
    return created;
  }

  @Get('ingestion-credentials')
  @OperationId('ListIngestionCredentialsController_list')
  @PlatformAdminOnly()
  @ApiOkResponse({ type: IngestionCredentialPage, description: 'Every scope, ascending by (createdAt, ingestionCredentialId).' })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListIngestionCredentialsParams): Promise<IngestionCredentialPage> {
    return this.queryBus.execute(new ListIngestionCredentialsQuery(principal.userId, params));
  }

  @Post('ingestion-credentials')
  @OperationId('CreatePlatformIngestionCredentialController_create')
  @PlatformAdminOnly()
  @ApiCreatedResponse({ type: CreatedIngestionCredentialResponse, description: 'A `platform` credential (routes to any tenant); `token` appears only here.' })
  async createPlatform(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateIngestionCredentialRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CreatedIngestionCredentialResponse> {
    const created = await this.commandBus.execute(new CreateIngestionCredentialCommand(principal, null, body));
    res.location(`/v1/ingestion-credentials/${created.ingestionCredentialId}`);
    return created;
  }

  @Get('ingestion-credentials/:ingestionCredentialId')
  @OperationId('GetIngestionCredentialController_get')
  @RequirePermission('ingestion:manage')
  @ApiOkResponse({ type: IngestionCredentialResponse })
  @ApiNotFoundResponse({ description: 'Missing, a platform credential for a non-admin, or another tenant\'s: one answer.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs `ingestion:manage` in the credential\'s tenant.' })
  get(@CurrentCaller() caller: Caller, @UuidParam('ingestionCredentialId') id: string): Promise<IngestionCredentialResponse> {
    return this.queryBus.execute(new GetIngestionCredentialQuery(caller, id));
  }

  @Post('ingestion-credentials/:ingestionCredentialId/revoke')
  @OperationId('RevokeIngestionCredentialController_revoke')
  @HttpCode(200)
  @RequirePermission('ingestion:manage')
  @ApiOkResponse({ type: IngestionCredentialResponse, description: '`revoked`, terminal; the next request with the token is 401 on every replica.' })
  @ApiNotFoundResponse({ description: 'Missing, a platform credential for a non-admin, or another tenant\'s: one answer.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs `ingestion:manage` in the credential\'s tenant.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already revoked.' })
  revoke(@CurrentCaller() caller: Caller, @UuidParam('ingestionCredentialId') id: string): Promise<IngestionCredentialResponse> {
    return this.commandBus.execute(new RevokeIngestionCredentialCommand(caller, id));
  }
}
