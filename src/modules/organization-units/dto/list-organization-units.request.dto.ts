import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import { MaxLength } from '../../../shared/validation/text-length';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { ORGANIZATION_UNIT_STATUSES, OrganizationUnitStatus } from './organization-unit.response.dto';

export class ListOrganizationUnitsParams extends AscendingPageParams {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'List the visible children of this visible unit. Omitted: the visible root units, or with `q` every visible unit.',
  })
  @IsOptional()
  @IsString()
  @IsUUID('all', { message: 'parentOrganizationUnitId must be a UUID' })
  parentOrganizationUnitId?: string;

  @ApiPropertyOptional({ enum: ORGANIZATION_UNIT_STATUSES, description: 'The unit’s own status.' })
  @IsOptional()
  @IsString()
  @IsIn([...ORGANIZATION_UNIT_STATUSES])
  status?: OrganizationUnitStatus;

  @ApiPropertyOptional({
    maxLength: 100,
    description: 'Case-insensitive substring of key or name. Without a parent, present (even empty) searches every visible unit.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}
