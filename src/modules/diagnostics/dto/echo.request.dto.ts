import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { Length } from '../../../shared/validation/text-length';

export class EchoRequest {
  @ApiProperty({ minLength: 1, maxLength: 1000 })
  @IsString()
  @Length(1, 1000)
  message!: string;
}
