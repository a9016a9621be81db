import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, NameColumn, StatusColumn, TenantIdColumn } from '../../../shared/database/columns';

export const CREDENTIAL_SCOPES = ['tenant', 'platform'] as const;
export type CredentialScope = (typeof CREDENTIAL_SCOPES)[number];
export const CREDENTIAL_STATUSES = ['active', 'revoked'] as const;
export type CredentialStatus = (typeof CREDENTIAL_STATUSES)[number];

/** A network server's ingestion token: only its SHA-256 is stored. */
@Entity({ name: 'ingestion_credentials' })
export class IngestionCredentialEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'ingestion_credential_id' })
  ingestionCredentialId!: string;

  @Column({ type: 'varchar', length: 16 })
  scope!: CredentialScope;

  @TenantIdColumn({ nullable: true })
  tenantId!: string | null;

  @NameColumn()
  name!: string;

  @Column({ name: 'token_sha256', type: 'bytea', select: false })
  tokenSha256!: Buffer;

  @Column({ name: 'token_prefix', type: 'varchar', length: 12 })
  tokenPrefix!: string;

  @StatusColumn()
  status!: CredentialStatus;

  @Column({ name: 'last_used_at', type: 'timestamptz', precision: 3, nullable: true })
  lastUsedAt!: Date | null;

  @CreatedAtColumn()
  createdAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', precision: 3, nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy!: string | null;
}
