import type { Principal } from './principal';

/**
 * Turns the Authorization header into the caller: the bearer token must verify and its session must still be
 * active, else an AuthenticationFailedError (401) says why. Provided by the identity module.
 */
export abstract class AccessTokenAuthenticator {
  abstract authenticate(authorization: string | undefined): Promise<Principal>;
}
