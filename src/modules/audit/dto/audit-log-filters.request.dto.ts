import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MaxLength } from '../../../shared/validation/text-length';
import type { SelectQueryBuilder } from 'typeorm';
import type { AuditLogEntity } from '../../../shared/audit/audit-log.entity';
import type { FilterValue } from '../../../shared/pagination/cursor-codec';
import { TimeWindowPageParams } from '../../../shared/pagination/newest-first-page';
import type { NewestFirstKeys } from '../../../shared/pagination/newest-first-paginator';

/** Filters shared by the tenant and the global audit query: all exact matches. */
export class AuditLogFilterParams extends TimeWindowPageParams {
  @ApiPropertyOptional({ maxLength: 100, example: 'device.assigned' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  eventType?: string;

  @ApiPropertyOptional({ maxLength: 64, example: 'assign' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  action?: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'userId, `system` or `anonymous`.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  actorId?: string;

  @ApiPropertyOptional({ maxLength: 64, example: 'device' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  entityType?: string;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  entityId?: string;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  correlationId?: string;

  @ApiPropertyOptional({ maxLength: 16, description: 'HTTP method, case-insensitive.' })
  @IsOptional()
  @IsString()
  @MaxLength(16)
  method?: string;

  @ApiPropertyOptional({ maxLength: 300, description: 'Route template, exact: `/v1/devices/{deviceId}`.' })
  @IsOptional()
  @IsString()
  @MaxLength(300)
  route?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 100, maximum: 599 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(100)
  @Max(599)
  statusCode?: number;
}

export const AUDIT_KEYS: NewestFirstKeys = { time: 'a.occurred_at', id: 'a.audit_log_id' };

/** Column of each exact-match filter (alias `a`). */
const COLUMNS = {
  eventType: 'a.event_type',
  action: 'a.action',
  actorId: 'a.actor_id',
  entityType: 'a.entity_type',
  entityId: 'a.entity_id',
  correlationId: 'a.correlation_id',
  method: 'a.method',
  route: 'a.route',
  statusCode: 'a.status_code',
} as const;

type FilterName = keyof typeof COLUMNS;

/** The filters as applied and bound into the cursor (omitted = null); methods are stored upper-case. */
export function auditFilters(params: AuditLogFilterParams): Record<FilterName, FilterValue> {
  return {
    eventType: params.eventType ?? null,
    action: params.action ?? null,
    actorId: params.actorId ?? null,
    entityType: params.entityType ?? null,
    entityId: params.entityId ?? null,
    correlationId: params.correlationId ?? null,
    method: params.method?.toUpperCase() ?? null,
    route: params.route ?? null,
    statusCode: params.statusCode ?? null,
  };
}

/** Adds one equality per given filter to `query` (alias `a`); the time window is the paginator's. */
export function applyAuditFilters(query: SelectQueryBuilder<AuditLogEntity>, filters: Record<string, FilterValue>): void {
  for (const name of Object.keys(COLUMNS) as FilterName[]) {
    const value = filters[name];
    if (value !== null && value !== undefined) query.andWhere(`${COLUMNS[name]} = :${name}`, { [name]: value });
  }
}
