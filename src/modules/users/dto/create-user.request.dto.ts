import { DisplayName, Email, Metadata, TemporaryPassword, Username } from './user.fields';

export class CreateUserRequest {
  @Username()
  username!: string;

  @Email()
  email!: string;

  @DisplayName()
  displayName!: string;

  @TemporaryPassword()
  temporaryPassword!: string;

  @Metadata('Default `{}`.')
  metadata?: Record<string, string>;
}
