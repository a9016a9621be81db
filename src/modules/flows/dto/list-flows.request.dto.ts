import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, IsUUID } from 'class-validator';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { MaxLength } from '../../../shared/validation/text-length';

export class ListFlowsParams extends AscendingPageParams {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the flow of this device type.' })
  @IsOptional()
  @IsUUID()
  deviceTypeId?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Case-insensitive substring of key or name.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}
