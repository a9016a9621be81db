import { ApiProperty } from '@nestjs/swagger';
import { DeviceFieldResponse } from '../../device-types';
import { JSON_VALUE_SCHEMAS } from './measurement-page.response.dto';

/** The API record "Current value entry". */
export class CurrentValueEntry {
  @ApiProperty({ type: () => DeviceFieldResponse })
  definition!: DeviceFieldResponse;

  @ApiProperty({
    oneOf: [...JSON_VALUE_SCHEMAS, { type: 'null' }],
    description: 'The stored value (number, string, boolean or JSON per the field’s schemaRef); null until the first storage.',
  })
  currentValue!: unknown;
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
