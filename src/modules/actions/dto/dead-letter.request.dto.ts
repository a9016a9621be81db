import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import { TimeWindowPageParams } from '../../../shared/pagination/newest-first-page';
import { DEAD_LETTER_STATUSES, DeadLetterStatus } from '../persistence/dead-letter.entity';

export class ListDeadLettersParams extends TimeWindowPageParams {
  @ApiPropertyOptional({ enum: DEAD_LETTER_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...DEAD_LETTER_STATUSES])
  status?: DeadLetterStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  emailTemplateId?: string;
}
