import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { NewestFirstPageParams } from '../../../shared/pagination/newest-first-page';
import type { VersionStatus } from '../../../shared/versioning/version-store';

export class ListFlowVersionsParams extends NewestFirstPageParams {
  @ApiPropertyOptional({ enum: ['draft', 'released', 'deprecated'] })
  @IsOptional()
  @IsString()
  @IsIn(['draft', 'released', 'deprecated'])
  status?: VersionStatus;
}
