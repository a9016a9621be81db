import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn } from '../../../shared/database/columns';

export type SessionRevokeReason =
  | 'logout'
  | 'logout_all'
  | 'revoked'
  | 'reuse_detected'
  | 'password_changed'
  | 'temporary_password'
  | 'user_disabled'
  | 'session_limit';

/** One sign-in: what access tokens (`sid`) and the refresh cookie are bound to. */
@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'session_id' })
  sessionId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @CreatedAtColumn()
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  lastUsedAt!: Date;

  @Column({ name: 'refresh_idle_expires_at', type: 'timestamptz' })
  refreshIdleExpiresAt!: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'revoke_reason', type: 'varchar', length: 32, nullable: true })
  revokeReason!: SessionRevokeReason | null;
}
