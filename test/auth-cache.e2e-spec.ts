import bcrypt from 'bcrypt';
import { Client } from 'pg';
import { ensureBuilt, Replica, startReplica } from './support/service-process';
import { TcpProxy } from './support/tcp-proxy';
import { createTestDatabase, TestDatabase } from './support/test-database';

/*
 * The authorization cache across replicas: three service processes on one database. A and B cache for ten
 * minutes (B's LISTEN connection goes through a proxy the test can cut); C runs with AUTH_CACHE_TTL_MS=0. A change
 * made through one replica is refused by the others within a second; a change written straight into the database
 * (no notification) shows whether a replica answers from its cache.
 */

const ADMIN = { username: 'cache-admin', password: 'cache-admin-password-1' };
const PASSWORD = 'member-password-0001';
const LONG_TTL = '600000';
const ORIGIN = 'https://console.uplink.test';

const startCacheReplica = (databaseUrl: string, env: Record<string, string>) => startReplica(databaseUrl, ADMIN, { ALLOWED_ORIGINS: ORIGIN, ...env });

interface Session {
  token: string;
  sessionId: string;
}

async function login(replica: Replica, identifier: string, password = PASSWORD): Promise<Session> {
  const res = await fetch(`${replica.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ identifier, password }),
  });
  expect(res.status).toBe(200);
  const token = ((await res.json()) as { accessToken: string }).accessToken;
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string };
  return { token, sessionId: claims.sid };
}

function call(replica: Replica, session: Session, path: string, method = 'GET', body?: unknown): Promise<Response> {
  return fetch(`${replica.url}${path}`, {
    method,
    // Logout is refused without an allowed Origin.
    headers: { Authorization: `Bearer ${session.token}`, Origin: ORIGIN, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function status(replica: Replica, session: Session, path: string): Promise<number> {
  const res = await call(replica, session, path);
  await res.arrayBuffer();
  return res.status;
}

/** How long until `path` answers `expected` on the replica (polled every 20 ms, given up after 3 s). */
async function msUntil(replica: Replica, session: Session, path: string, expected: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 3000) {
    if ((await status(replica, session, path)) === expected) return Date.now() - started;
    await new Promise((done) => setTimeout(done, 20));
  }
  return Infinity;
}

beforeAll(() => ensureBuilt(), 120_000);

describe('authorization cache across replicas', () => {
  let database: TestDatabase;
  let db: Client;
  let proxy: TcpProxy;
  let a: Replica;
  let b: Replica;
  let c: Replica;
  let admin: Session;
  let tenantNumber: number;
  let tenantId: string;
  let userCount = 0;

  /** A fresh user with a tenant-level viewer membership in the test tenant. */
  async function seedMember(): Promise<{ userId: string; username: string; membershipId: string }> {
    const username = `member-${++userCount}`;
    const hash = await bcrypt.hash(PASSWORD, 4);
    const {
      rows: [user],
    } = await db.query<{ user_id: string }>(
      `INSERT INTO users (username, email, display_name, status, password_hash, password_change_required)
       VALUES ($1, $2, 'Member', 'active', $3, false) RETURNING user_id`,
      [username, `${username}@example.com`, hash],
    );
    const {
      rows: [membership],
    } = await db.query<{ membership_id: string }>(
      `INSERT INTO memberships (tenant_id, user_id, role, organization_unit_id, include_descendants)
       VALUES ($1, $2, 'tenant_viewer', NULL, true) RETURNING membership_id`,
      [tenantId, user!.user_id],
    );
    return { userId: user!.user_id, username, membershipId: membership!.membership_id };
  }

  /** Revokes a session straight in the database: no notification, so only an uncached read notices. */
  async function revokeInDatabase(session: Session): Promise<void> {
    await db.query(`UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = 'revoked' WHERE session_id = $1`, [session.sessionId]);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    db = new Client({ connectionString: database.url });
    await db.connect();
    proxy = await TcpProxy.start(database.url);
    a = await startCacheReplica(database.url, { AUTH_CACHE_TTL_MS: LONG_TTL });
    [b, c] = await Promise.all([
      startCacheReplica(database.url, { AUTH_CACHE_TTL_MS: LONG_TTL, AUTH_CACHE_LISTEN_URL: proxy.rewrite(database.url) }),
      startCacheReplica(database.url, { AUTH_CACHE_TTL_MS: '0' }),
    ]);
    admin = await login(a, ADMIN.username, ADMIN.password);
    const {
      rows: [tenant],
    } = await db.query<{ tenant_id: string; tenant_number: number }>(
      `INSERT INTO tenants (key, name) VALUES ('cache', 'Cache') RETURNING tenant_id, tenant_number`,
    );
    tenantId = tenant!.tenant_id;
    tenantNumber = tenant!.tenant_number;
  }, 240_000);

  afterAll(async () => {
    for (const replica of [a, b, c]) {
      if (replica && replica.service.child.exitCode === null) {
        replica.service.child.kill('SIGTERM');
        await replica.service.exited;
      }
    }
    await proxy?.stop();
    await db?.end();
    await database?.drop();
  }, 60_000);

  it('answers from the cache while nothing notifies (a change written around the service is not seen), but not with AUTH_CACHE_TTL_MS=0', async () => {
    const { username } = await seedMember();
    const session = await login(a, username);
    for (const replica of [a, b, c]) expect(await status(replica, session, '/v1/auth/me')).toBe(200);
    await revokeInDatabase(session);
    expect(await status(c, session, '/v1/auth/me')).toBe(401);
    expect(await status(a, session, '/v1/auth/me')).toBe(200);
    expect(await status(b, session, '/v1/auth/me')).toBe(200);
  });

  it('logout on one replica: refused at once there, and by the other replicas within one second', async () => {
    const { username } = await seedMember();
    const session = await login(a, username);
    for (const replica of [a, b]) expect(await status(replica, session, '/v1/auth/me')).toBe(200);
    const res = await call(a, session, '/v1/auth/logout', 'POST');
    expect(res.status).toBe(204);
    const refused = await call(a, session, '/v1/auth/me');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { details: { reason: string } } }).error.details.reason).toBe('revoked_session');
    expect(await msUntil(b, session, '/v1/auth/me', 401)).toBeLessThan(1000);
  });

  it('a session revoked through another session: refused by the other replica within one second', async () => {
    const { username } = await seedMember();
    const [first, second] = [await login(a, username), await login(a, username)];
    expect(await status(b, first, '/v1/auth/me')).toBe(200);
    expect(await status(a, first, '/v1/auth/me')).toBe(200);
    const res = await call(a, second, `/v1/auth/sessions/${first.sessionId}`, 'DELETE');
    expect(res.status).toBe(204);
    expect(await status(a, first, '/v1/auth/me')).toBe(401);
    expect(await msUntil(b, first, '/v1/auth/me', 401)).toBeLessThan(1000);
    expect(await status(b, second, '/v1/auth/me')).toBe(200);
  });

  it('a disabled membership: its tenant becomes a 404 at once on the replica that disabled it and within one second on the other', async () => {
    const { username, membershipId } = await seedMember();
    const session = await login(a, username);
    const path = `/v1/tenants/${tenantNumber}`;
    for (const replica of [a, b]) expect(await status(replica, session, path)).toBe(200);
    const res = await call(a, admin, `/v1/memberships/${membershipId}/disable`, 'POST');
    expect(res.status).toBe(200);
    expect(await status(a, session, path)).toBe(404);
    expect(await msUntil(b, session, path, 404)).toBeLessThan(1000);
    // The session itself is untouched.
    expect(await status(b, session, '/v1/auth/me')).toBe(200);
  });

  it('a disabled user: every session refused at once on the replica that disabled it and within one second on the other', async () => {
    const { username, userId } = await seedMember();
    const session = await login(a, username);
    const path = `/v1/tenants/${tenantNumber}`;
    for (const replica of [a, b]) expect(await status(replica, session, path)).toBe(200);
    const res = await call(a, admin, `/v1/users/${userId}`, 'PATCH', { status: 'disabled' });
    expect(res.status).toBe(200);
    expect(await status(a, session, path)).toBe(401);
    expect(await msUntil(b, session, path, 401)).toBeLessThan(1000);
  });

  it('a disabled unit: a grant on a unit below it stops being effective at once here and within one second on the other replica', async () => {
    const { userId, username } = await seedMember();
    const unit = async (key: string, parent: { id: string; ancestors: string[] } | null) => {
      const ancestors = parent ? [...parent.ancestors, parent.id] : [];
      const {
        rows: [row],
      } = await db.query<{ organization_unit_id: string }>(
        `INSERT INTO organization_units (tenant_id, parent_organization_unit_id, ancestor_ids, depth, key, name)
         VALUES ($1, $2, $3::uuid[], $4, $5, $5) RETURNING organization_unit_id`,
        [tenantId, parent?.id ?? null, ancestors, ancestors.length + 1, key],
      );
      return { id: row!.organization_unit_id, ancestors };
    };
    const site = await unit(`site-${userCount}`, null);
    const room = await unit(`room-${userCount}`, site);
    // Only a grant on the room: the tenant-level membership seedMember made goes.
    await db.query(`DELETE FROM memberships WHERE user_id = $1`, [userId]);
    await db.query(
      `INSERT INTO memberships (tenant_id, user_id, role, organization_unit_id, include_descendants) VALUES ($1, $2, 'tenant_viewer', $3, true)`,
      [tenantId, userId, room.id],
    );
    const session = await login(a, username);
    const path = `/v1/organization-units/${room.id}`;
    for (const replica of [a, b]) expect(await status(replica, session, path)).toBe(200);
    const res = await call(a, admin, `/v1/organization-units/${site.id}/disable`, 'POST');
    expect(res.status).toBe(200);
    expect(await status(a, session, path)).toBe(404);
    expect(await msUntil(b, session, path, 404)).toBeLessThan(1000);
  });

  it('an ingestion token: answered from the cache, refused at once by the replica that revoked it and within one second by the other', async () => {
    const created = await call(a, admin, `/v1/tenants/${tenantNumber}/ingestion-credentials`, 'POST', { name: 'Cached token' });
    expect(created.status).toBe(201);
    const { ingestionCredentialId, token } = (await created.json()) as { ingestionCredentialId: string; token: string };
    const ingest = async (replica: Replica): Promise<number> => {
      const res = await fetch(`${replica.url}/v1/ingestion/http`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ devEui: '0A0B0C0D0E0F1011', payload: { encoding: 'hex', data: '01' } }),
      });
      await res.arrayBuffer();
      return res.status;
    };
    for (const replica of [a, b, c]) expect(await ingest(replica)).toBe(202);
    // Revoked around the service (no notification): the caching replicas still accept the token, C does not.
    await db.query(`UPDATE ingestion_credentials SET status = 'revoked', revoked_at = clock_timestamp() WHERE ingestion_credential_id = $1`, [ingestionCredentialId]);
    expect(await ingest(c)).toBe(401);
    expect(await ingest(a)).toBe(202);
    expect(await ingest(b)).toBe(202);
    // Revoked through the API on A (the row made active again first, so the revoke itself is accepted).
    await db.query(`UPDATE ingestion_credentials SET status = 'active', revoked_at = NULL WHERE ingestion_credential_id = $1`, [ingestionCredentialId]);
    expect((await call(a, admin, `/v1/ingestion-credentials/${ingestionCredentialId}/revoke`, 'POST')).status).toBe(200);
    expect(await ingest(a)).toBe(401);
    const started = Date.now();
    while ((await ingest(b)) !== 401 && Date.now() - started < 3000) await new Promise((done) => setTimeout(done, 20));
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('with its LISTEN connection cut a replica bypasses its cache (revocations refused at once), and caches again once reconnected', async () => {
    const { username } = await seedMember();
    const [revokedByApi, revokedInDatabase] = [await login(a, username), await login(a, username)];
    for (const session of [revokedByApi, revokedInDatabase]) expect(await status(b, session, '/v1/auth/me')).toBe(200);

    await proxy.cut();
    await new Promise((done) => setTimeout(done, 300)); // the socket's end reaches B's client
    expect((await call(a, revokedByApi, '/v1/auth/logout', 'POST')).status).toBe(204);
    expect(await status(b, revokedByApi, '/v1/auth/me')).toBe(401);
    await revokeInDatabase(revokedInDatabase);
    expect(await status(b, revokedInDatabase, '/v1/auth/me')).toBe(401);

    // Back: after reconnecting (with backoff) B caches again, and notifications reach it again.
    await proxy.restore();
    const probe = await login(a, username);
    const deadline = Date.now() + 10_000;
    let cachedAgain = false;
    while (!cachedAgain && Date.now() < deadline) {
      const fresh = await login(a, username);
      expect(await status(b, fresh, '/v1/auth/me')).toBe(200);
      await revokeInDatabase(fresh);
      cachedAgain = (await status(b, fresh, '/v1/auth/me')) === 200;
      if (!cachedAgain) await new Promise((done) => setTimeout(done, 200));
    }
    expect(cachedAgain).toBe(true);
    expect(await status(b, probe, '/v1/auth/me')).toBe(200);
    expect((await call(a, probe, '/v1/auth/logout', 'POST')).status).toBe(204);
    expect(await msUntil(b, probe, '/v1/auth/me', 401)).toBeLessThan(1000);
  }, 30_000);
});
