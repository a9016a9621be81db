import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { AuditLogFilterParams } from './audit-log-filters.request.dto';

/** The global audit query: the tenant filters plus `tenantId`. */
export class ListAuditLogsParams extends AuditLogFilterParams {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only this tenant\'s events; unknown → 400 reference_not_found.' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;
}
