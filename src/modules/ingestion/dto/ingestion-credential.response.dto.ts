import { ApiProperty } from '@nestjs/swagger';
import { PageResponse } from '../../../shared/pagination/page';
import {
  CREDENTIAL_SCOPES,
  CREDENTIAL_STATUSES,
  CredentialScope,
  CredentialStatus,
  IngestionCredentialEntity,
} from '../persistence/ingestion-credential.entity';

/** An ingestion credential as the API returns it: never the token. */
export class IngestionCredentialResponse {
  @ApiProperty({ format: 'uuid' })
  ingestionCredentialId!: string;

  @ApiProperty({ enum: CREDENTIAL_SCOPES, description: '`tenant`: delivers only to its tenant\'s devices; `platform`: to any tenant.' })
  scope!: CredentialScope;

  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'Null for platform credentials.' })
  tenantId!: string | null;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ minLength: 12, maxLength: 12, description: 'The first 12 characters of the token, to recognise it.' })
  tokenPrefix!: string;

  @ApiProperty({ enum: CREDENTIAL_STATUSES, description: '`revoked` is terminal and takes effect on the next request.' })
  status!: CredentialStatus;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Updated at most once a minute.' })
  lastUsedAt!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  revokedAt!: string | null;

  static of(row: IngestionCredentialEntity): IngestionCredentialResponse {
    return {
      ingestionCredentialId: row.ingestionCredentialId,
      scope: row.scope,
      tenantId: row.tenantId,
      name: row.name,
      tokenPrefix: row.tokenPrefix,
      status: row.status,
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
      createdAt: row.createdAt.toISOString(),
      revokedAt: row.revokedAt?.toISOString() ?? null,
    };
  }
}

/** The created credential with its token: the only time the token is shown. */
export class CreatedIngestionCredentialResponse extends IngestionCredentialResponse {
  @ApiProperty({ pattern: '^uit_[A-Za-z0-9_-]{43}$', description: 'Shown once; send as `Authorization: Bearer <token>`.' })
  token!: string;
}

export class IngestionCredentialPage extends PageResponse(IngestionCredentialResponse) {}
