import { ApiProperty } from '@nestjs/swagger';
import type { DeviceAssignmentEntity } from '../persistence/device-assignment.entity';
import { DEVICE_STATUSES, DeviceEntity, DeviceStatus } from '../persistence/device.entity';

/** The API record "Device assignment". */
export class DeviceAssignmentResponse {
  @ApiProperty({ format: 'uuid' })
  deviceAssignmentId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  organizationUnitId!: string;

  @ApiProperty({ format: 'date-time', description: 'Start of the half-open period [validFrom, validTo).' })
  validFrom!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'null while the period is open (the current assignment).' })
  validTo!: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the assignment was recorded.' })
  assignedAt!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(assignment: DeviceAssignmentEntity): DeviceAssignmentResponse {
    return {
      deviceAssignmentId: assignment.deviceAssignmentId,
      deviceId: assignment.deviceId,
      tenantId: assignment.tenantId,
      organizationUnitId: assignment.organizationUnitId,
      validFrom: assignment.validFrom.toISOString(),
      validTo: assignment.validTo?.toISOString() ?? null,
      assignedAt: assignment.assignedAt.toISOString(),
      createdAt: assignment.createdAt.toISOString(),
      updatedAt: assignment.updatedAt.toISOString(),
    };
  }
}

/** The API record "Device" plus `createdAt`, `updatedAt`. */
export class DeviceResponse {
  @ApiProperty({ format: 'uuid' })
  deviceId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceTypeId!: string;

  @ApiProperty({ pattern: '^[A-F0-9]{16}$', minLength: 16, maxLength: 16, description: 'Immutable.' })
  devEui!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ enum: DEVICE_STATUSES })
  status!: DeviceStatus;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  metadata!: Record<string, string>;

  @ApiProperty({ type: DeviceAssignmentResponse, nullable: true, description: 'The open period; null while unassigned.' })
  currentAssignment!: DeviceAssignmentResponse | null;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description:
      'Receipt time of the device’s last processed uplink (a raw message routed to it and run through its flow); null before the first. Written by processing, so it does not change `updatedAt`.',
  })
  lastSeenAt!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(device: DeviceEntity, current: DeviceAssignmentEntity | null): DeviceResponse {
    return {
      deviceId: device.deviceId,
      tenantId: device.tenantId,
      deviceTypeId: device.deviceTypeId,
      devEui: device.devEui,
      name: device.name,
      status: device.status,
      metadata: device.metadata,
      currentAssignment: current ? DeviceAssignmentResponse.of(current) : null,
      lastSeenAt: device.lastSeenAt?.toISOString() ?? null,
      createdAt: device.createdAt.toISOString(),
      updatedAt: device.updatedAt.toISOString(),
    };
  }
}
