import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional, IsString, IsUUID } from 'class-validator';
import { EmailAddress } from '../../../shared/validation/email';
import { MaxLength } from '../../../shared/validation/text-length';

export class TestSendRequest {
  @ApiProperty({ format: 'email', maxLength: 320, description: 'The one address the test e-mail goes to.' })
  @IsString()
  @MaxLength(320)
  @EmailAddress('to')
  to!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Values to render with (`tenant`, `device`, `organizationUnit`, `values`, `observedAt`, `flow`, `parameters`, as the template variables name them); missing ones render "".',
  })
  @IsOptional()
  @IsObject()
  context?: Record<string, unknown>;

  @ApiPropertyOptional({ format: 'uuid', description: 'Render with the input and values of this execution of the tenant (instead of `context`).' })
  @IsOptional()
  @IsUUID()
  flowExecutionId?: string;
}

/** The SMTP server's acceptance of the test e-mail. */
export class TestSendResponse {
  @ApiProperty({ description: 'The `Message-ID` header of the test e-mail.' })
  messageId!: string;

  @ApiProperty({ type: 'integer' })
  smtpCode!: number;

  @ApiProperty()
  smtpReply!: string;
}
