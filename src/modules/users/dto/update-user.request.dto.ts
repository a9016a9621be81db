import type { UserStatus } from '../../identity';
import { Metadata, OptionalDisplayName, OptionalEmail, OptionalStatus, OptionalUsername } from './user.fields';
import { MinProperties } from '../../../shared/validation/min-properties';

/** At least one property; `metadata` replaces the whole map. */
@MinProperties(1)
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
