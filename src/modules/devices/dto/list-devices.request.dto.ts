import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { MaxLength } from '../../../shared/validation/text-length';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { DEV_EUI_PATTERN } from './create-device.request.dto';
import { DEVICE_STATUSES, DeviceStatus } from '../persistence/device.entity';

export class ListDevicesParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: DEVICE_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...DEVICE_STATUSES])
  status?: DeviceStatus;

  @ApiPropertyOptional({ format: 'uuid', description: 'A device type of the tenant.' })
  @IsOptional()
  @IsString()
  @IsUUID('all', { message: 'deviceTypeId must be a UUID' })
  deviceTypeId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Devices currently assigned to this visible unit (and, by default, below it).' })
  @IsOptional()
  @IsString()
  @IsUUID('all', { message: 'organizationUnitId must be a UUID' })
  organizationUnitId?: string;

  @ApiPropertyOptional({ type: 'boolean', default: true, description: 'With `organizationUnitId`: include devices in its descendant units.' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean({ message: 'includeDescendants must be true or false' })
  includeDescendants?: boolean;

  @ApiPropertyOptional({ pattern: DEV_EUI_PATTERN.source, description: 'Exact devEui.' })
  @IsOptional()
  @IsString()
  @Matches(DEV_EUI_PATTERN, { message: 'devEui must be 16 uppercase hexadecimal characters (^[A-F0-9]{16}$)' })
  devEui?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Case-insensitive substring of the name, or prefix of the devEui.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}
