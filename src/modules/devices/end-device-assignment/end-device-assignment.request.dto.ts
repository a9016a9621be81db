import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsString } from 'class-validator';
import { WhenPresent } from '../../../shared/validation/fields';

export class EndDeviceAssignmentRequest {
  @ApiPropertyOptional({ format: 'date-time', description: 'End of the period (default now): after its start, not in the future.' })
  @WhenPresent()
  @IsString()
  @IsISO8601({ strict: true }, { message: 'validTo must be an ISO 8601 date-time' })
  validTo?: string;
}
