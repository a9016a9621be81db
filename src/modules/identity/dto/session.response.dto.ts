import { ApiProperty } from '@nestjs/swagger';
import type { SessionEntity } from '../persistence/session.entity';

/** A session as the API shows it: no IP address or user agent, ever. */
export class SessionResponse {
  @ApiProperty({ format: 'uuid' })
  sessionId!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  lastUsedAt!: string;

  @ApiProperty({ format: 'date-time' })
  refreshIdleExpiresAt!: string;

  @ApiProperty({ description: 'The session of the calling access token.' })
  current!: boolean;

  static of(session: SessionEntity, currentSessionId: string): SessionResponse {
    return {
      sessionId: session.sessionId,
      createdAt: session.createdAt.toISOString(),
      lastUsedAt: session.lastUsedAt.toISOString(),
      refreshIdleExpiresAt: session.refreshIdleExpiresAt.toISOString(),
      current: session.sessionId === currentSessionId,
    };
  }
}
