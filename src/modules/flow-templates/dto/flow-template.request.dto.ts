import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { AscendingPageParams } from '../../../shared/pagination/page';
import type { VersionStatus } from '../../../shared/versioning/version-store';
import { EntityName, OptionalEntityName } from '../../../shared/validation/fields';
import { MinProperties } from '../../../shared/validation/min-properties';
import { Length, MaxLength } from '../../../shared/validation/text-length';
import { OptionalDescription } from '../../device-types';
import { FLOW_TEMPLATE_KEY_PATTERN } from './flow-template.response.dto';

export class CreateFlowTemplateRequest {
  @ApiProperty({ pattern: FLOW_TEMPLATE_KEY_PATTERN.source, minLength: 1, maxLength: 128, description: 'Unique among the flow templates; immutable.' })
  @IsString()
  @Length(1, 128)
  @Matches(FLOW_TEMPLATE_KEY_PATTERN, { message: 'key must match ^[a-z0-9][a-z0-9._-]{0,127}$' })
  key!: string;

  @EntityName()
  name!: string;

  @OptionalDescription()
  description?: string;
}

/** At least one property; `key` is immutable. */
@MinProperties(1)
export class UpdateFlowTemplateRequest {
  @OptionalEntityName()
  name?: string;

  @OptionalDescription('Absent: unchanged.')
  description?: string;
}

export class ListFlowTemplatesParams extends AscendingPageParams {
  @ApiPropertyOptional({ maxLength: 100, description: 'Case-insensitive substring of key or name.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @ApiPropertyOptional({
    enum: ['draft', 'released', 'deprecated'],
    description: 'Only templates with at least one version in this status; `released` is the catalog a console offers.',
  })
  @IsOptional()
  @IsString()
  @IsIn(['draft', 'released', 'deprecated'])
  status?: VersionStatus;
}
