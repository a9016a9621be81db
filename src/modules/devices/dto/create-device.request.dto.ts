import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID, Matches } from 'class-validator';
import { Length } from '../../../shared/validation/text-length';
import { EntityName, Metadata, WhenPresent } from '../../../shared/validation/fields';

export const DEV_EUI_PATTERN = /^[A-F0-9]{16}$/;

export class CreateDeviceRequest {
  @ApiProperty({ pattern: DEV_EUI_PATTERN.source, minLength: 16, maxLength: 16, description: 'Exactly as sent: uppercase hex, no separators. Immutable.' })
  @IsString()
  @Length(16, 16)
  @Matches(DEV_EUI_PATTERN, { message: 'devEui must be 16 uppercase hexadecimal characters (^[A-F0-9]{16}$)' })
  devEui!: string;

  @EntityName()
  name!: string;

  @ApiProperty({ format: 'uuid', description: 'An active device type of the tenant. Immutable.' })
  @IsString()
  @IsUUID('all', { message: 'deviceTypeId must be a UUID' })
  deviceTypeId!: string;

  @Metadata('Default `{}`.')
  metadata?: Record<string, string>;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Assign the device to this unit from now on (opens its first period). Required for callers without a tenant-level grant.',
  })
  @WhenPresent()
  @IsString()
  @IsUUID('all', { message: 'organizationUnitId must be a UUID' })
  organizationUnitId?: string;
}
