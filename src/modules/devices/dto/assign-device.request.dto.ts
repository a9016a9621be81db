import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, IsUUID } from 'class-validator';
import { WhenPresent } from '../../../shared/validation/fields';
import { DateTimeFormat } from '../../../shared/validation/time-window';

export class AssignDeviceRequest {
  @ApiProperty({ format: 'uuid', description: 'An active unit of the device’s tenant, covered by the caller’s `devices:assign`.' })
  @IsString()
  @IsUUID('all', { message: 'organizationUnitId must be a UUID' })
  organizationUnitId!: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Start of the new period (default now): not in the future, after the open period’s start and not before the last period’s end.',
  })
  @WhenPresent()
  @IsString()
  @DateTimeFormat()
  validFrom?: string;
}
