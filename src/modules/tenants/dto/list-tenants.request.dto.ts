import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MaxLength } from '../../../shared/validation/text-length';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { TENANT_STATUSES, TenantStatus } from './tenant.response.dto';

export class ListTenantsParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: TENANT_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...TENANT_STATUSES])
  status?: TenantStatus;

  @ApiPropertyOptional({ maxLength: 100, description: 'Case-insensitive substring of key or name.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}
