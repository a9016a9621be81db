import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { INGESTION_CREDENTIALS_DOCS } from './ingestion-credentials.docs';
import { ReadById, Route, TenantCreate, TenantList, WriteById } from '../../shared/http/routes';
import { INGESTION_PARAMETER_EXAMPLES, INGESTION_SCHEMA_EXAMPLES } from './ingestion.examples';

@ApiTags('ingestion')
@ApiBearerAuth()
@ApiDocs(INGESTION_CREDENTIALS_DOCS, { schemas: INGESTION_SCHEMA_EXAMPLES, parameters: INGESTION_PARAMETER_EXAMPLES })
@Controller('v1')
export class IngestionCredentialsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @TenantList('tenants/:tenantNumber/ingestion-credentials', {
    operationId: 'tenantIngestionCredentials_list',
    permission: 'ingestion:manage',
    type: IngestionCredentialPage,
    description: 'Ascending by (createdAt, ingestionCredentialId); never the token.',
    forbidden: '`missing_permission`: needs `ingestion:manage` through a tenant-level grant.',
  })
  listTenant(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListTenantIngestionCredentialsParams,
  ): Promise<IngestionCredentialPage> {
    return this.queryBus.execute(new ListTenantIngestionCredentialsQuery(caller, tenantNumber, params));
  }

  @TenantCreate('tenants/:tenantNumber/ingestion-credentials', {
    operationId: 'tenantIngestionCredentials_create',
    permission: 'ingestion:manage',
    type: CreatedIngestionCredentialResponse,
    description: '`Location: /v1/ingestion-credentials/{id}`; `token` appears only here.',
    location: '/v1/ingestion-credentials/{ingestionCredentialId}',
    forbidden: '`missing_permission`: needs `ingestion:manage` through a tenant-level grant.',
    conflict: '`max_credentials`: the tenant already holds 10 active credentials.',
  })
  createTenant(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateIngestionCredentialRequest,
  ): Promise<CreatedIngestionCredentialResponse> {
    return this.commandBus.execute(new CreateIngestionCredentialCommand(caller.principal, { tenantNumber, caller }, body));
  }

  @Route('get', 'ingestion-credentials', {
    operationId: 'ingestionCredentials_list',
    platformAdminOnly: true,
    type: IngestionCredentialPage,
    description: 'Every scope, ascending by (createdAt, ingestionCredentialId).',
  })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListIngestionCredentialsParams): Promise<IngestionCredentialPage> {
    return this.queryBus.execute(new ListIngestionCredentialsQuery(principal.userId, params));
  }

  @Route('post', 'ingestion-credentials', {
    operationId: 'ingestionCredentials_create',
    platformAdminOnly: true,
    type: CreatedIngestionCredentialResponse,
    description: 'A `platform` credential (routes to any tenant); `token` appears only here.',
    location: '/v1/ingestion-credentials/{ingestionCredentialId}',
  })
  createPlatform(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateIngestionCredentialRequest,
  ): Promise<CreatedIngestionCredentialResponse> {
    return this.commandBus.execute(new CreateIngestionCredentialCommand(principal, null, body));
  }

  @ReadById('ingestion-credentials/:ingestionCredentialId', {
    operationId: 'ingestionCredentials_get',
    permission: 'ingestion:manage',
    type: IngestionCredentialResponse,
    forbidden: '`missing_permission`: needs `ingestion:manage` in the credential\'s tenant.',
    notFound: 'Missing, a platform credential for a non-admin, or another tenant\'s: one answer.',
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('ingestionCredentialId') id: string): Promise<IngestionCredentialResponse> {
    return this.queryBus.execute(new GetIngestionCredentialQuery(caller, id));
  }

  @WriteById('post', 'ingestion-credentials/:ingestionCredentialId/revoke', {
    operationId: 'ingestionCredentials_revoke',
    permission: 'ingestion:manage',
    type: IngestionCredentialResponse,
    description: '`revoked`, terminal; the next request with the token is 401 on every replica.',
    forbidden: '`missing_permission`: needs `ingestion:manage` in the credential\'s tenant.',
    notFound: 'Missing, a platform credential for a non-admin, or another tenant\'s: one answer.',
    conflict: '`invalid_state` (+`currentStatus`): already revoked.',
  })
  revoke(@CurrentCaller() caller: Caller, @UuidParam('ingestionCredentialId') id: string): Promise<IngestionCredentialResponse> {
    return this.commandBus.execute(new RevokeIngestionCredentialCommand(caller, id));
  }
}
