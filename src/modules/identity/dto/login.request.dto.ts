import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { Length } from '../../../shared/validation/text-length';

export class LoginRequest {
  @ApiProperty({ description: 'Username or e-mail address', minLength: 1, maxLength: 320 })
  @IsString()
  @Length(1, 320)
  identifier!: string;

  @ApiProperty({ description: 'Used exactly as entered', minLength: 1, maxLength: 1024, format: 'password' })
  @IsString()
  @Length(1, 1024)
  password!: string;
}
