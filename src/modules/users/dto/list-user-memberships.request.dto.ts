import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { MEMBERSHIP_STATUSES } from '../../memberships';

export class ListUserMembershipsParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: MEMBERSHIP_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...MEMBERSHIP_STATUSES])
  status?: (typeof MEMBERSHIP_STATUSES)[number];

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  tenantId?: string;
}
