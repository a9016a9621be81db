import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import { EmailAddress } from '../../../shared/validation/email';
import { TimeWindowPageParams } from '../../../shared/pagination/newest-first-page';
import { MaxLength } from '../../../shared/validation/text-length';
import { EMAIL_DELIVERY_STATUSES, EmailDeliveryStatus } from '../persistence/email-delivery.entity';

export class ListEmailDeliveriesParams extends TimeWindowPageParams {
  @ApiPropertyOptional({ enum: EMAIL_DELIVERY_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...EMAIL_DELIVERY_STATUSES])
  status?: EmailDeliveryStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  emailTemplateId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  deviceId?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  flowExecutionId?: string;

  @ApiPropertyOptional({ format: 'email', maxLength: 320, description: 'The recipient\'s address, any case.' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @EmailAddress('recipient')
  recipient?: string;
}
