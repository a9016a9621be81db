import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { AuthCache, tagsOf } from '../../../shared/auth/auth-cache';
import { AuthenticationFailedError } from '../../../shared/errors/domain-error';
import { TOKEN_PATTERN, tokenHash } from '../domain/ingestion-token';

export interface IngestionCaller {
  credentialId: string;
  tenantId: string | null;
}

const CALLER = Symbol('ingestionCaller');
/** `lastUsedAt` is written at most this often per credential. */
const LAST_USED_INTERVAL_MS = 60_000;

export function ingestionCallerOf(req: Request): IngestionCaller {
  const caller = (req as unknown as Record<symbol, IngestionCaller | undefined>)[CALLER];
  if (!caller) throw new Error('ingestion route without IngestionTokenGuard');
  return caller;
}

interface CredentialRow {
  token_sha256: Buffer;
  ingestion_credential_id: string;
  tenant_id: string | null;
  status: string;
}

interface Lookup {
  hash: Buffer;
  resolve: (row: CredentialRow | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Authenticates ingestion requests by their own bearer token (`uit_...`), before the body is read. The token's
 * credential is found by the token's SHA-256 in the authorization cache (AuthCache: an active credential only, for
 * at most AUTH_CACHE_TTL_MS), else in the database. A revoke invalidates it like any change of authorization state:
 * the replica that revoked refuses the token's next request, the others once the revoke's notification reaches
 * them (well under a second), and a replica whose notifications are down reads the database for every request.
 * A network server sends every uplink with the same token, so under load this saves a database read per request.
 * Concurrent requests that miss share lookups: one statement at a time reads every hash that is waiting, and a
 * request arriving while a statement is in flight waits for the next one, so each request is answered from a read
 * that started after it arrived. Unknown tokens are never cached. `lastUsedAt` is coalesced: at most one write per credential
 * a minute per replica, and the UPDATE itself skips rows touched within the minute by another replica. Used by
 * IngestionTokenGuard (the routes through Nest) and by the webhook fast path alike.
 */
@Injectable()
export class IngestionAuthenticator {
  private readonly logger = new Logger('Ingestion');
  private readonly lastTouched = new Map<string, number>();
  private waiting: Lookup[] = [];
  private looking = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly cache: AuthCache,
  ) {}

  /** The caller of an `Authorization` header value; AuthenticationFailedError (401) when there is none or it is not active. */
  async authenticate(header: string | undefined): Promise<IngestionCaller> {
    if (!header) throw new AuthenticationFailedError('missing_token', 'An ingestion token is required: Authorization: Bearer uit_...');
    const match = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!match || !TOKEN_PATTERN.test(match[1]!)) throw invalid();
    const hash = tokenHash(match[1]!);
    const key = `ingestion-token:${hash.toString('hex')}`;
    let caller = this.cache.get<IngestionCaller>(key);
    if (!caller) {
      const mark = this.cache.mark();
      const row = await this.lookup(hash);
      if (!row || row.status !== 'active') throw invalid();
      caller = { credentialId: row.ingestion_credential_id, tenantId: row.tenant_id };
      this.cache.set(mark, key, caller, tagsOf({ ingestionCredentialId: caller.credentialId }));
    }
    this.touch(caller.credentialId);
    return caller;
  }

  private lookup(hash: Buffer): Promise<CredentialRow | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ hash, resolve, reject });
      if (!this.looking) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.looking = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting;
        this.waiting = [];
        try {
          const hashes = [...new Map(batch.map((lookup) => [lookup.hash.toString('hex'), lookup.hash])).values()];
          const rows = await this.dataSource.query<CredentialRow[]>(
            `SELECT token_sha256, ingestion_credential_id, tenant_id, status FROM ingestion_credentials WHERE token_sha256 = ANY ($1::bytea[])`,
            [hashes],
          );
          for (const lookup of batch) lookup.resolve(rows.find((row) => row.token_sha256.equals(lookup.hash)));
        } catch (error) {
          for (const lookup of batch) lookup.reject(error);
        }
      }
    } finally {
      this.looking = false;
    }
  }

  private touch(credentialId: string): void {
    const now = Date.now();
    const last = this.lastTouched.get(credentialId);
    if (last !== undefined && now - last < LAST_USED_INTERVAL_MS) return;
    this.lastTouched.set(credentialId, now);
    this.dataSource
      .query(
        `UPDATE ingestion_credentials SET last_used_at = clock_timestamp()
          WHERE ingestion_credential_id = $1 AND (last_used_at IS NULL OR last_used_at < clock_timestamp() - interval '1 minute')`,
        [credentialId],
      )
      .catch((error: Error) => this.logger.warn(`lastUsedAt of ${credentialId} not updated: ${error.message}`));
  }
}

/** The ingestion routes' guard: the request's caller (IngestionAuthenticator) is kept for `ingestionCallerOf`. */
@Injectable()
export class IngestionTokenGuard implements CanActivate {
  constructor(private readonly authenticator: IngestionAuthenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    setIngestionCaller(req, await this.authenticator.authenticate(req.headers.authorization));
    return true;
  }
}

export function setIngestionCaller(req: object, caller: IngestionCaller): void {
  (req as Record<symbol, IngestionCaller>)[CALLER] = caller;
}

function invalid(): AuthenticationFailedError {
  return new AuthenticationFailedError('invalid_token', 'The ingestion token is unknown or revoked.');
}
