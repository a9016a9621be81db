import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { OVERRIDE_LEVELS, OverrideLevel } from '../persistence/flow-parameter-override.entity';
import { PARAMETER_KEY_PATTERN } from '../domain/graph/flow-graph';

export class ListParameterOverridesParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: OVERRIDE_LEVELS })
  @IsOptional()
  @IsString()
  @IsIn([...OVERRIDE_LEVELS])
  level?: OverrideLevel;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only overrides of this device.' })
  @IsOptional()
  @IsUUID()
  deviceId?: string;

  @ApiPropertyOptional({ pattern: PARAMETER_KEY_PATTERN.source })
  @IsOptional()
  @IsString()
  @Matches(PARAMETER_KEY_PATTERN)
  key?: string;
}
