import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TenantIdColumn, TimestampedRow } from '../../../shared/database/columns';

/**
 * A device assignment: a half-open period [validFrom, validTo) of a device in a unit. PostgreSQL keeps at most
 * one open period per device and no overlaps (see the devices migration).
 */
@Entity({ name: 'device_assignments' })
export class DeviceAssignmentEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'device_assignment_id' })
  deviceAssignmentId!: string;

  @TenantIdColumn()
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
}
