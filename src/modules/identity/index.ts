/*
 * The identity module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PasswordHasher, passwordPolicyViolation } from './domain/password-hasher';
export { SessionService } from './domain/session-service';
export { UserResponse } from './dto/user.response.dto';
export { IdentityModule } from './identity.module';
export { UserEntity } from './persistence/user.entity';
export type { UserStatus } from './persistence/user.entity';
export { readUserContacts } from './persistence/user-contact.reader';
export type { UserContact } from './persistence/user-contact.reader';
