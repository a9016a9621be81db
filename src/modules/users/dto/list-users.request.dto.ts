import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MaxLength } from '../../../shared/validation/text-length';
import { AscendingPageParams } from '../../../shared/pagination/page';
import type { UserStatus } from '../../identity';
import { USER_STATUSES } from './user.fields';

export class ListUsersParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: USER_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...USER_STATUSES])
  status?: UserStatus;

  @ApiPropertyOptional({ maxLength: 100, description: 'Case-insensitive substring of username, e-mail or display name.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}
