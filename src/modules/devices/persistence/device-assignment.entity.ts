import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A device assignment: a half-open period [validFrom, validTo) of a device in a unit. PostgreSQL keeps at most
 * one open period per device and no overlaps (see the devices migration).
 */
@Entity({ name: 'device_assignments' })
export class DeviceAssignmentEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'device_assignment_id' })
  deviceAssignmentId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'device_id', type: 'uuid' })
  deviceId!: string;

  @Column({ name: 'organization_unit_id', type: 'uuid' })
  organizationUnitId!: string;

  @Column({ name: 'valid_from', type: 'timestamptz' })
  validFrom!: Date;

  @Column({ name: 'valid_to', type: 'timestamptz', nullable: true })
  validTo!: Date | null;

  @Column({ name: 'assigned_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  assignedAt!: Date;

  @Column({ name: 'assigned_by_user_id', type: 'uuid', nullable: true })
  assignedByUserId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
