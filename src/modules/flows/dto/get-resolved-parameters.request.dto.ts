import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';

export class GetResolvedParametersParams {
  @ApiProperty({ format: 'uuid', description: 'A device of the flow\'s device type.' })
  @IsUUID()
  deviceId!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A version of this flow (any status); default the active version.' })
  @IsOptional()
  @IsUUID()
  flowVersionId?: string;
}
