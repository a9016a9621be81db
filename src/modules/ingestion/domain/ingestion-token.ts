import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'uit_';
/** `uit_` + 43 base64url characters (32 random bytes). */
export const TOKEN_PATTERN = /^uit_[A-Za-z0-9_-]{43}$/;

export interface IssuedToken {
  token: string;
  sha256: Buffer;
  prefix: string;
}

/** A new ingestion token; only its SHA-256 and its first 12 characters are ever stored. */
export function issueToken(): IssuedToken {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, sha256: tokenHash(token), prefix: token.slice(0, 12) };
}

/**
 * The lookup key of a presented token. Lookup goes by this hash through a unique index, so the comparison
 * never touches the secret itself: response time does not depend on how much of a guess matched.
 */
export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
