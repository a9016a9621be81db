import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MaxLength } from '../../../shared/validation/text-length';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { DEVICE_TYPE_STATUSES, DeviceTypeStatus } from '../persistence/device-type.entity';

export class ListDeviceTypesParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: DEVICE_TYPE_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...DEVICE_TYPE_STATUSES])
  status?: DeviceTypeStatus;

  @ApiPropertyOptional({ maxLength: 100, description: 'Case-insensitive substring of key or name.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}
