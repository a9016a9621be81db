import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { MetadataColumn, TenantIdColumn } from '../database/columns';

export type AuditOutcome = 'success' | 'denied' | 'failure';
export type AuditActorType = 'user' | 'system' | 'import' | 'anonymous';

/** Append-only (a trigger rejects UPDATE and DELETE); written only through AuditWriter. */
@Entity({ name: 'audit_log' })
export class AuditLogEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'audit_log_id' })
  auditLogId!: string;

  @TenantIdColumn({ nullable: true })
  tenantId!: string | null;

  @Column({ name: 'event_type', type: 'varchar', length: 100 })
  eventType!: string;

  @Column({ name: 'actor_type', type: 'varchar', length: 16 })
  actorType!: AuditActorType;

  @Column({ name: 'actor_id', type: 'varchar', length: 64 })
  actorId!: string;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ name: 'entity_type', type: 'varchar', length: 64 })
  entityType!: string;

  @Column({ name: 'entity_id', type: 'varchar', length: 200, nullable: true })
  entityId!: string | null;

  @Column({ type: 'varchar', length: 16 })
  outcome!: AuditOutcome;

  @CreateDateColumn({ name: 'occurred_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  occurredAt!: Date;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128 })
  correlationId!: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  method!: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  route!: string | null;

  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode!: number | null;

  @MetadataColumn()
  metadata!: Record<string, unknown>;
}
