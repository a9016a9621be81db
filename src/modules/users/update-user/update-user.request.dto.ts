import type { UserStatus } from '../../identity/domain/user.entity';
import { Metadata, OptionalDisplayName, OptionalEmail, OptionalStatus, OptionalUsername } from '../domain/user-fields';

/** At least one property (design C4); `metadata` replaces the whole map. */
export class UpdateUserRequest {
  @OptionalUsername()
  username?: string;

  @OptionalEmail()
  email?: string;

  @OptionalDisplayName()
  displayName?: string;

  @OptionalStatus()
  status?: UserStatus;

  @Metadata('Replaces the whole map.')
  metadata?: Record<string, string>;
}

export type UserChanges = Partial<Pick<UpdateUserRequest, 'username' | 'email' | 'displayName' | 'status' | 'metadata'>>;
