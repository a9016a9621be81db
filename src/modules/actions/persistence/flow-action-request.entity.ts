import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An e-mail an `email-action` node of a live execution asked for, written in the execution's transaction (an
 * outbox): delivery reads it later and never sees a request of a rolled-back run. Deleted with its execution.
 */
@Entity({ name: 'flow_action_requests' })
export class FlowActionRequestEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'action_request_id' })
  actionRequestId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'flow_id', type: 'uuid' })
  flowId!: string;

  @Column({ name: 'flow_execution_id', type: 'uuid' })
  flowExecutionId!: string;

  @Column({ name: 'node_id', type: 'varchar', length: 120 })
  nodeId!: string;

  @Column({ name: 'email_template_id', type: 'uuid' })
  emailTemplateId!: string;

  @Column({ name: 'device_id', type: 'uuid' })
  deviceId!: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: 'pending' | 'done';

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;
}
