import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { EntityName } from '../../../shared/validation/fields';
import { CREDENTIAL_SCOPES, CREDENTIAL_STATUSES, CredentialScope, CredentialStatus } from '../persistence/ingestion-credential.entity';

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
