import { ApiProperty } from '@nestjs/swagger';

export const TENANT_STATUSES = ['active', 'disabled'] as const;
export type TenantStatus = (typeof TENANT_STATUSES)[number];

/** A tenant row as the access layer (`TenantRow`) or TypeORM (`TenantEntity`) gives it. */
export interface TenantLike {
  tenantId: string;
  tenantNumber: number;
  key: string;
  name: string;
  status: TenantStatus;
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

/** A tenant: its public record plus `metadata`; `status` `active`/`disabled`. */
export class TenantResponse {
  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 2147483647, description: 'Public number, assigned ascending from 1.' })
  tenantNumber!: number;

  @ApiProperty({ pattern: '^[a-z0-9][a-z0-9._-]{0,63}$' })
  key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ enum: TENANT_STATUSES })
  status!: TenantStatus;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  metadata!: Record<string, string>;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(row: TenantLike): TenantResponse {
    return {
      tenantId: row.tenantId,
      tenantNumber: row.tenantNumber,
      key: row.key,
      name: row.name,
      status: row.status,
      metadata: row.metadata,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}
