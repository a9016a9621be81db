import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { KeyColumn, TenantIdColumn, TimestampedRow } from '../../../shared/database/columns';

export const OVERRIDE_LEVELS = ['tenant', 'device_type', 'device'] as const;
export type OverrideLevel = (typeof OVERRIDE_LEVELS)[number];

/**
 * A stored parameter value: tenant level (every flow of the tenant declaring the key), device-type level (the
 * type's flow) or device level (one device of the type).
 */
@Entity({ name: 'flow_parameter_overrides' })
export class FlowParameterOverrideEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'parameter_override_id' })
  parameterOverrideId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ type: 'varchar', length: 16 })
  level!: OverrideLevel;

  @Column({ name: 'device_type_id', type: 'uuid', nullable: true })
  deviceTypeId!: string | null;

  @Column({ name: 'device_id', type: 'uuid', nullable: true })
  deviceId!: string | null;

  @KeyColumn()
  key!: string;

  @Column({ type: 'jsonb' })
  value!: unknown;
}
