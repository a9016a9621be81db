import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A refresh token, by SHA-256 hash only. `rotatedAt` null marks the session's current token. */
@Entity({ name: 'refresh_tokens' })
export class RefreshTokenEntity {
  @PrimaryColumn({ name: 'token_hash', type: 'char', length: 64 })
  tokenHash!: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId!: string;

  @Column({ name: 'issued_at', type: 'timestamptz', default: () => 'clock_timestamp()' })
  issuedAt!: Date;

  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt!: Date | null;
}
