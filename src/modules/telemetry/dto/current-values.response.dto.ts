import { ApiProperty } from '@nestjs/swagger';
import { DeviceFieldResponse } from '../../device-types';
import { JSON_VALUE_SCHEMAS } from '../../../shared/validation/json-value-schemas';

/** The API record "Current value entry". */
export class CurrentValueEntry {
  @ApiProperty({ type: () => DeviceFieldResponse })
  definition!: DeviceFieldResponse;

  @ApiProperty({
    oneOf: [...JSON_VALUE_SCHEMAS, { type: 'null' }],
    description: 'The stored value (number, string, boolean or JSON per the field’s schemaRef); null until the first storage.',
  })
  currentValue!: unknown;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description:
      'The `observedAt` of the stored value (the uplink’s time from the network server, else its receipt time); null until the first storage. A value is replaced only by one observed at the same time or later.',
  })
  observedAt!: string | null;
}

export class CurrentValuesResponse {
  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceTypeId!: string;

  @ApiProperty({
    type: () => [CurrentValueEntry],
    description: 'One entry per active field of the device type, deprecated fields omitted, ascending by (createdAt, deviceFieldDefinitionId).',
  })
  fields!: CurrentValueEntry[];
}
