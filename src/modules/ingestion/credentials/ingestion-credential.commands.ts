import { Command, Query } from '@nestjs/cqrs';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import type { Caller } from '../../../shared/access/require-permission';
import type { Principal } from '../../../shared/auth/principal';
import { AscendingPageParams, Page } from '../../../shared/pagination/page';
import { EntityName } from '../../../shared/validation/fields';
import { CREDENTIAL_SCOPES, CREDENTIAL_STATUSES, CredentialScope, CredentialStatus } from '../persistence/ingestion-credential.entity';
import type { CreatedIngestionCredentialResponse, IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';

export class CreateIngestionCredentialRequest {
  @EntityName()
  name!: string;
}

export class ListTenantIngestionCredentialsParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: CREDENTIAL_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...CREDENTIAL_STATUSES])
  status?: CredentialStatus;
}

export class ListIngestionCredentialsParams extends ListTenantIngestionCredentialsParams {
  @ApiPropertyOptional({ enum: CREDENTIAL_SCOPES })
  @IsOptional()
  @IsString()
  @IsIn([...CREDENTIAL_SCOPES])
  scope?: CredentialScope;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only this tenant\'s credentials; unknown → 400 reference_not_found.' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;
}

/** A tenant credential (`tenantNumber` given, checked against `caller.permission`) or a platform one (null). */
export class CreateIngestionCredentialCommand extends Command<CreatedIngestionCredentialResponse> {
  constructor(
    readonly principal: Principal,
    readonly tenant: { tenantNumber: number; caller: Caller } | null,
    readonly input: CreateIngestionCredentialRequest,
  ) {
    super();
  }
}

export class RevokeIngestionCredentialCommand extends Command<IngestionCredentialResponse> {
  constructor(
    readonly caller: Caller,
    readonly credentialId: string,
  ) {
    super();
  }
}

export class GetIngestionCredentialQuery extends Query<IngestionCredentialResponse> {
  constructor(
    readonly caller: Caller,
    readonly credentialId: string,
  ) {
    super();
  }
}

export class ListTenantIngestionCredentialsQuery extends Query<Page<IngestionCredentialResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListTenantIngestionCredentialsParams,
  ) {
    super();
  }
}

export class ListIngestionCredentialsQuery extends Query<Page<IngestionCredentialResponse>> {
  constructor(
    readonly actorId: string,
    readonly params: ListIngestionCredentialsParams,
  ) {
    super();
  }
}
