import { ApiProperty } from '@nestjs/swagger';
import { ENTITY_KEY_PATTERN } from '../../../shared/validation/fields';
import { DEVICE_TYPE_STATUSES, DeviceTypeEntity, DeviceTypeStatus } from '../persistence/device-type.entity';

/** A device type as the API returns it. */
export class DeviceTypeResponse {
  @ApiProperty({ format: 'uuid' })
  deviceTypeId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ pattern: ENTITY_KEY_PATTERN.source, description: 'Unique in the tenant; immutable.' })
  key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ maxLength: 500 })
  description!: string;

  @ApiProperty({ enum: DEVICE_TYPE_STATUSES, description: '`disabled`: no new devices; its uplinks are stored, not processed.' })
  status!: DeviceTypeStatus;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Also the `ETag`; send it back in `If-Match` to change the type.' })
  lockVersion!: number;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(type: DeviceTypeEntity): DeviceTypeResponse {
    return {
      deviceTypeId: type.deviceTypeId,
      tenantId: type.tenantId,
      key: type.key,
      name: type.name,
      description: type.description,
      status: type.status,
      lockVersion: type.lockVersion,
      createdAt: type.createdAt.toISOString(),
      updatedAt: type.updatedAt.toISOString(),
    };
  }
}
