import { ApiProperty } from '@nestjs/swagger';
import { OVERRIDE_LEVELS, OverrideLevel, FlowParameterOverrideEntity } from '../persistence/flow-parameter-override.entity';
import { JSON_VALUE_SCHEMAS } from '../../../shared/validation/json-value-schemas';

/** A stored parameter value at tenant, device-type or device level. */
export class ParameterOverrideResponse {
  @ApiProperty({ format: 'uuid' })
  parameterOverrideId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ enum: OVERRIDE_LEVELS })
  level!: OverrideLevel;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  deviceTypeId!: string | null;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true })
  deviceId!: string | null;

  @ApiProperty({ pattern: '^[a-zA-Z][a-zA-Z0-9_]{0,63}$' })
  key!: string;

  @ApiProperty({ oneOf: [...JSON_VALUE_SCHEMAS, { type: 'null' }], description: 'Any JSON value of the declared type.' })
  value!: unknown;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(row: FlowParameterOverrideEntity): ParameterOverrideResponse {
    return {
      parameterOverrideId: row.parameterOverrideId,
      tenantId: row.tenantId,
      level: row.level,
      deviceTypeId: row.deviceTypeId,
      deviceId: row.deviceId,
      key: row.key,
      value: row.value,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}
