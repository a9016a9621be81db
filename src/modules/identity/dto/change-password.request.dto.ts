import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { Length } from '../../../shared/validation/text-length';

export class ChangePasswordRequest {
  @ApiProperty({ minLength: 1, maxLength: 1024, format: 'password' })
  @IsString()
  @Length(1, 1024)
  currentPassword!: string;

  @ApiProperty({ minLength: 12, maxLength: 128, format: 'password', description: 'Not equal to the username or e-mail.' })
  @IsString()
  @Length(1, 1024)
  newPassword!: string;
}
