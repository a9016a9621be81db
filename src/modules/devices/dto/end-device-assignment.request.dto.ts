import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { WhenPresent } from '../../../shared/validation/fields';
import { DateTimeFormat } from '../../../shared/validation/time-window';

export class EndDeviceAssignmentRequest {
  @ApiPropertyOptional({ format: 'date-time', description: 'End of the period (default now): after its start, not in the future.' })
  @WhenPresent()
  @IsString()
  @DateTimeFormat()
  validTo?: string;
}
