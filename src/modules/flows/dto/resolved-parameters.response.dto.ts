import { ApiProperty } from '@nestjs/swagger';
import { PARAMETER_TYPES, ParameterType } from '../domain/graph/flow-graph';
import type { ValueSource } from '../domain/parameter-resolution';
import { JSON_VALUE_SCHEMAS } from '../../../shared/validation/json-value-schemas';

export class ResolvedParameterResponse {
  @ApiProperty()
  key!: string;

  @ApiProperty({ enum: PARAMETER_TYPES })
  type!: ParameterType;

  @ApiProperty({ oneOf: [...JSON_VALUE_SCHEMAS, { type: 'null' }], description: 'The value a live execution of the device would use (null: no value).' })
  value!: unknown;

  @ApiProperty({ enum: ['device', 'device_type', 'tenant', 'default'] })
  source!: ValueSource;
}

/** The parameter values a device's live executions get, and where each comes from. */
export class ResolvedParametersResponse {
  @ApiProperty({ format: 'uuid' })
  flowId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceId!: string;

  @ApiProperty({ format: 'uuid' })
  flowVersionId!: string;

  @ApiProperty({ type: [ResolvedParameterResponse] })
  parameters!: ResolvedParameterResponse[];
}
