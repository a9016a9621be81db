import { ApiProperty } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { JSON_VALUE_SCHEMAS } from '../../../shared/validation/json-value-schemas';

export class SetParameterOverrideRequest {
  @ApiProperty({ oneOf: [...JSON_VALUE_SCHEMAS, { type: 'null' }], description: 'Required; any JSON value of the type the newest declaration of the key gives.' })
  @Allow()
  value!: unknown;
}
