import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { UserEntity, UserStatus } from '../persistence/user.entity';

/** The API's Global user record; never the password hash. */
export class UserResponse {
  @ApiProperty({ format: 'uuid' })
  userId!: string;

  @ApiPropertyOptional({ minLength: 3, maxLength: 64, description: 'Absent only in the create response (spec).' })
  username?: string;

  @ApiProperty({ format: 'email' })
  email!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  displayName!: string;

  @ApiProperty({ enum: ['active', 'disabled'] })
  status!: UserStatus;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  metadata!: Record<string, string>;

  @ApiProperty({ type: [String], enum: ['platform_admin'] })
  platformRoles!: 'platform_admin'[];

  @ApiProperty()
  isProtected!: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(user: UserEntity, { withUsername = true } = {}): UserResponse {
    return {
      userId: user.userId,
      ...(withUsername ? { username: user.username } : {}),
      email: user.email,
      displayName: user.displayName,
      status: user.status,
      metadata: user.metadata,
      platformRoles: user.isPlatformAdmin ? ['platform_admin'] : [],
      isProtected: user.isProtected,
      createdAt: user.createdAt.toISOString(),
      updatedAt: user.updatedAt.toISOString(),
    };
  }
}
