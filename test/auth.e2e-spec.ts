import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppConfig } from '../src/config/app-config';
import { login, loginAdmin, refresh, refreshCookieOf, seedUser } from './support/auth';
import { startTestApp, TEST_ADMIN, TEST_ORIGIN, TestApp } from './support/test-app';
import { seedGrant, seedTenant, seedUnit, SeededTenant } from './support/tenancy';
import { permissionsOf } from '../src/shared/access/permissions';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('login', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOGIN_MAX_FAILURES: '3' } });
  });
  afterAll(() => t.close());

  it('answers the token object and sets the refresh cookie (HttpOnly, SameSite=Strict, host-only, 7 days)', async () => {
    const user = await seedUser(t);
    const res = await t.http().post('/v1/auth/login').send({ identifier: user.username, password: user.password }).expect(200);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiresInSeconds: 1800,
      refreshIdleExpiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      passwordChangeRequired: false,
    });
    expect(res.headers['cache-control']).toBe('no-store');
    const [cookie] = res.headers['set-cookie'] as unknown as string[];
    expect(cookie).toMatch(/^platform_refresh=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('Max-Age=604800');
    expect(cookie).toContain('Path=/');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).not.toContain('Domain=');
    expect(cookie).not.toContain('Secure'); // REFRESH_COOKIE_SECURE=false in tests
    expect(JSON.stringify(res.body)).not.toContain(cookie.split(';')[0]!.split('=')[1]);
  });

  it('accepts the e-mail address, case-insensitively, and the username in any case', async () => {
    const user = await seedUser(t);
    await login(t, user.email.toUpperCase(), user.password);
    await login(t, user.username.toUpperCase(), user.password);
  });

  it('uses the password exactly as entered', async () => {
    const user = await seedUser(t, { password: '  Spaced Password  ' });
    await t.http().post('/v1/auth/login').send({ identifier: user.username, password: 'Spaced Password' }).expect(401);
    await login(t, user.username, '  Spaced Password  ');
  });

  it('gives one generic 401 for unknown identifier, wrong password, disabled user and no local credential', async () => {
    const disabled = await seedUser(t, { status: 'disabled' });
    const noCredential = await seedUser(t, { password: null });
    const wrong = await seedUser(t);
    const attempts = [
      { identifier: 'nobody-at-all', password: 'whatever-password' },
      { identifier: wrong.username, password: 'not-the-password' },
      { identifier: disabled.username, password: disabled.password },
      { identifier: noCredential.username, password: 'whatever-password' },
    ];
    const bodies: Record<string, unknown>[] = [];
    for (const attempt of attempts) {
      const res = await t.http().post('/v1/auth/login').send(attempt).expect(401);
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.headers['set-cookie']).toBeUndefined();
      const { correlationId: _ignored, ...error } = res.body.error;
      bodies.push(error);
    }
    expect(bodies.every((body) => JSON.stringify(body) === JSON.stringify(bodies[0]))).toBe(true);
    expect(bodies[0]).toEqual({ code: 'AUTHENTICATION_FAILED', category: 'authentication', message: expect.any(String) });

    const audit = await t.dataSource.query<{ outcome: string; actor_type: string; metadata: Record<string, unknown> }[]>(
      `SELECT outcome, actor_type, metadata FROM audit_log WHERE event_type = 'session.login_failed'`,
    );
    expect(audit.length).toBeGreaterThanOrEqual(4);
    expect(audit.every((row) => row.outcome === 'failure' && row.actor_type === 'anonymous')).toBe(true);
  });

  it('validates the body with field paths', async () => {
    const res = await t.http().post('/v1/auth/login').send({ password: 'x'.repeat(1025) }).expect(400);
    expect(res.body.error.details.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'body.identifier', rule: 'required' }),
        expect.objectContaining({ path: 'body.password', rule: 'max_length' }),
      ]),
    );
    const extra = await t.http().post('/v1/auth/login').send({ identifier: 'a', password: 'b', remember: true }).expect(400);
    expect(extra.body.error.details.fields[0]).toMatchObject({ path: 'body.remember', rule: 'unknown_property' });
  });

  it('locks an account after LOGIN_MAX_FAILURES failures (by any identifier), before checking the password, and unlocks after the lockout', async () => {
    const user = await seedUser(t);
    for (let i = 0; i < 3; i++) {
      await t.http().post('/v1/auth/login').send({ identifier: user.username, password: 'wrong-password' }).expect(401);
    }
    const locked = await t.http().post('/v1/auth/login').send({ identifier: user.email, password: user.password }).expect(429);
    expect(locked.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(locked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(locked.body.error.details).toEqual({ retryAfterSeconds: retryAfter });

    // The throttle lives in PostgreSQL: let the clock run out there.
    await t.dataSource.query(
      `UPDATE login_failures SET last_failure_at = last_failure_at - interval '16 minutes' WHERE identifier_key = $1`,
      [`user:${user.userId}`],
    );
    await login(t, user.email, user.password);
    const [row] = await t.dataSource.query(`SELECT 1 FROM login_failures WHERE identifier_key = $1`, [`user:${user.userId}`]);
    expect(row).toBeUndefined();
  });

  it('throttles identifiers that name no account as typed', async () => {
    for (let i = 0; i < 3; i++) {
      await t.http().post('/v1/auth/login').send({ identifier: 'Ghost-User', password: 'wrong-password' }).expect(401);
    }
    await t.http().post('/v1/auth/login').send({ identifier: 'ghost-user', password: 'wrong-password' }).expect(429);
  });
});

/**
 * The IP window is the database clock's calendar minute: attempts that straddle its end count in two windows. Waits
 * (at most 10 s) until the current minute has at least 10 s left, so the attempts of a test fall in one window.
 */
async function awayFromMinuteEnd(t: TestApp): Promise<void> {
  const [{ left }] = await t.dataSource.query<{ left: number }[]>(
    `SELECT extract(epoch FROM date_trunc('minute', clock_timestamp()) + interval '1 minute' - clock_timestamp())::float8 AS "left"`,
  );
  if (left < 10) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
}

describe('login throttle per IP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOGIN_IP_ATTEMPTS_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('refuses more than LOGIN_IP_ATTEMPTS_PER_MINUTE attempts per minute, then recovers', async () => {
    const user = await seedUser(t);
    await awayFromMinuteEnd(t);
    for (let i = 0; i < 3; i++) {
      await t.http().post('/v1/auth/login').send({ identifier: `someone-${i}`, password: 'wrong-password' }).expect(401);
    }
    const res = await t.http().post('/v1/auth/login').send({ identifier: user.username, password: user.password }).expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    await t.dataSource.query(`UPDATE login_ip_attempts SET window_start = window_start - interval '1 minute'`);
    await login(t, user.username, user.password);
  });
});

describe('bearer tokens', () => {
  let t: TestApp;
  let secret: string;

  beforeAll(async () => {
    t = await startTestApp();
    secret = t.app.get(AppConfig).jwtSecret;
  });
  afterAll(() => t.close());

  const expectBearer401 = (res: { status: number; body: { error: { code: string; details?: { reason?: string } } }; headers: Record<string, string> }, reason: string) => {
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('AUTHENTICATION_FAILED');
    expect(res.body.error.details?.reason).toBe(reason);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  };

  it('accepts a valid token and refuses missing, malformed, foreign, unsigned and expired ones', async () => {
    const { accessToken } = await loginAdmin(t);
    await t.http().get('/v1/diagnostics/version').set('Authorization', `Bearer ${accessToken}`).expect(200);
    const claims = jwt.decode(accessToken) as jwt.JwtPayload;

    expectBearer401(await t.http().get('/v1/diagnostics/version'), 'missing_token');
    expectBearer401(await t.http().get('/v1/diagnostics/version').set('Authorization', 'Bearer not.a.jwt'), 'invalid_token');
    expectBearer401(await t.http().get('/v1/diagnostics/version').set('Authorization', `Basic ${accessToken}`), 'invalid_token');

    const foreign = jwt.sign({ sub: claims.sub, sid: claims.sid }, 'another-secret-another-secret-1234', {
      issuer: 'uplink',
      audience: 'uplink-api',
      expiresIn: 600,
    });
    expectBearer401(await t.http().get('/v1/diagnostics/version').set('Authorization', `Bearer ${foreign}`), 'invalid_token');

    const unsigned = jwt.sign({ sub: claims.sub, sid: claims.sid, iss: 'uplink', aud: 'uplink-api' }, '', { algorithm: 'none' });
    expectBearer401(await t.http().get('/v1/diagnostics/version').set('Authorization', `Bearer ${unsigned}`), 'invalid_token');

    const expired = jwt.sign({ sub: claims.sub, sid: claims.sid, exp: Math.floor(Date.now() / 1000) - 10 }, secret, {
      issuer: 'uplink',
      audience: 'uplink-api',
    });
    expectBearer401(await t.http().get('/v1/diagnostics/version').set('Authorization', `Bearer ${expired}`), 'expired_token');

    const forgedSession = jwt.sign({ sub: claims.sub, sid: 'not-a-uuid' }, secret, { issuer: 'uplink', audience: 'uplink-api', expiresIn: 60 });
    expectBearer401(await t.http().get('/v1/diagnostics/version').set('Authorization', `Bearer ${forgedSession}`), 'invalid_token');
  });

  it("rejects a disabled user's live token on the very next request", async () => {
    const user = await seedUser(t);
    const { accessToken } = await login(t, user.username, user.password);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${accessToken}`).expect(200);
    const admin = await loginAdmin(t);
    await t.http().patch(`/v1/users/${user.userId}`).set('Authorization', `Bearer ${admin.accessToken}`).send({ status: 'disabled' }).expect(200);
    expectBearer401(await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${accessToken}`), 'revoked_session');
  });

  it('echoes through authentication, validation, the database and the error filter', async () => {
    const { accessToken } = await loginAdmin(t);
    const res = await t
      .http()
      .post('/v1/diagnostics/echo')
      .set('Authorization', `Bearer ${accessToken}`)
      .set('X-Correlation-Id', 'echo-1')
      .send({ message: 'hello' })
      .expect(200);
    const claims = jwt.decode(accessToken) as jwt.JwtPayload;
    expect(res.body).toEqual({
      message: 'hello',
      correlationId: 'echo-1',
      receivedAt: expect.any(String),
      userId: claims.sub,
      databaseRoundTripMs: expect.any(Number),
    });
    const invalid = await t.http().post('/v1/diagnostics/echo').set('Authorization', `Bearer ${accessToken}`).send({ message: '' }).expect(400);
    expect(invalid.body.error.details.fields[0]).toMatchObject({ path: 'body.message', rule: 'min_length' });
  });
});

describe('refresh, logout and sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { REFRESH_RACE_WINDOW_SECONDS: '1' } });
  });
  afterAll(() => t.close());

  it('rotates the cookie and moves the idle deadline', async () => {
    const user = await seedUser(t);
    const first = await login(t, user.username, user.password);
    await sleep(20);
    const res = await refresh(t, first.cookie).expect(200);
    expect(res.body.tokenType).toBe('Bearer');
    expect(res.headers['cache-control']).toBe('no-store');
    const rotated = refreshCookieOf(res);
    expect(rotated).not.toBeNull();
    expect(rotated).not.toBe(first.cookie);
    expect(new Date(res.body.refreshIdleExpiresAt).getTime()).toBeGreaterThan(new Date(String(first.body.refreshIdleExpiresAt)).getTime());
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${res.body.accessToken}`).expect(200);
    await refresh(t, rotated!).expect(200);
  });

  it('lets exactly one of several parallel refreshes of one token succeed', async () => {
    const user = await seedUser(t);
    const { cookie } = await login(t, user.username, user.password);
    const results = await Promise.all(Array.from({ length: 6 }, () => refresh(t, cookie)));
    const statuses = results.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
    for (const res of results.filter((r) => r.status === 409)) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body.error.details.reason).toBe('refresh_in_progress');
    }
  });

  it('treats a rotated token presented after the race window as reuse: session revoked, 401, cookie cleared, audited', async () => {
    const user = await seedUser(t);
    const first = await login(t, user.username, user.password);
    const rotated = await refresh(t, first.cookie).expect(200);
    await refresh(t, first.cookie).expect(409); // inside the window: a race
    await sleep(1300);
    const reuse = await refresh(t, first.cookie).expect(401);
    expect((reuse.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^platform_refresh=;.*Expires=Thu, 01 Jan 1970/);
    // The whole session is gone: the newest cookie and the access tokens of the session too.
    await refresh(t, refreshCookieOf(rotated)!).expect(401);
    const me = await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${rotated.body.accessToken}`).expect(401);
    expect(me.body.error.details.reason).toBe('revoked_session');
    const [audit] = await t.dataSource.query(
      `SELECT outcome, actor_id FROM audit_log WHERE event_type = 'session.reuse_detected' AND actor_id = $1`,
      [user.userId],
    );
    expect(audit).toEqual({ outcome: 'failure', actor_id: user.userId });
  });

  it('refuses a missing or tampered cookie with 401 (cookie cleared) and a foreign Origin with 403', async () => {
    const user = await seedUser(t);
    const { cookie } = await login(t, user.username, user.password);
    const missing = await t.http().post('/v1/auth/refresh').set('Origin', TEST_ORIGIN).expect(401);
    expect(missing.body.error.code).toBe('AUTHENTICATION_FAILED');
    expect((missing.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^platform_refresh=;/);
    await refresh(t, `${cookie}x`).expect(401);
    for (const origin of ['https://evil.example', 'https://console.uplink.test.evil.example', 'null']) {
      const res = await refresh(t, cookie, origin).expect(403);
      expect(res.body.error.details.reason).toBe('origin_not_allowed');
    }
    const noOrigin = await t.http().post('/v1/auth/refresh').set('Cookie', cookie).expect(403);
    expect(noOrigin.body.error.details.reason).toBe('origin_not_allowed');
    await refresh(t, cookie).expect(200);
  });

  it('logout revokes the session at once, needs an allowed Origin, and clears the cookie', async () => {
    const user = await seedUser(t);
    const session = await login(t, user.username, user.password);
    const auth = `Bearer ${session.accessToken}`;
    await t.http().post('/v1/auth/logout').set('Authorization', auth).expect(403);
    const res = await t.http().post('/v1/auth/logout').set('Authorization', auth).set('Origin', TEST_ORIGIN).set('Cookie', session.cookie).expect(204);
    expect((res.headers['set-cookie'] as unknown as string[])[0]).toMatch(/^platform_refresh=;/);
    const after = await t.http().get('/v1/auth/me').set('Authorization', auth).expect(401);
    expect(after.body.error.details.reason).toBe('revoked_session');
    await refresh(t, session.cookie).expect(401);
  });

  it('logout-all revokes every session of the user and no one else’s', async () => {
    const user = await seedUser(t);
    const other = await seedUser(t);
    const a = await login(t, user.username, user.password);
    const b = await login(t, user.username, user.password);
    const c = await login(t, other.username, other.password);
    await t.http().post('/v1/auth/logout-all').set('Authorization', `Bearer ${a.accessToken}`).expect(204);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${a.accessToken}`).expect(401);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${b.accessToken}`).expect(401);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${c.accessToken}`).expect(200);
  });

  it('lists at most 10 active sessions, newest use first, without IP or user agent; the 11th login evicts the least recently used', async () => {
    const user = await seedUser(t);
    const sessions = [];
    for (let i = 0; i < 11; i++) sessions.push(await login(t, user.username, user.password));
    const newest = sessions[10]!;
    const res = await t.http().get('/v1/auth/sessions').set('Authorization', `Bearer ${newest.accessToken}`).expect(200);
    expect(res.body.items).toHaveLength(10);
    expect(Object.keys(res.body.items[0]).sort()).toEqual(['createdAt', 'current', 'lastUsedAt', 'refreshIdleExpiresAt', 'sessionId']);
    expect(res.body.items.filter((item: { current: boolean }) => item.current)).toHaveLength(1);
    const used = res.body.items.map((item: { lastUsedAt: string }) => item.lastUsedAt);
    expect([...used].sort().reverse()).toEqual(used);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${sessions[0]!.accessToken}`).expect(401);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${sessions[1]!.accessToken}`).expect(200);
  });

  it("deletes one's own session (the current one too) and answers 404 for anyone else's", async () => {
    const user = await seedUser(t);
    const other = await seedUser(t);
    const mine = await login(t, user.username, user.password);
    const second = await login(t, user.username, user.password);
    const theirs = await login(t, other.username, other.password);
    const theirId = (jwt.decode(theirs.accessToken) as jwt.JwtPayload).sid as string;
    const secondId = (jwt.decode(second.accessToken) as jwt.JwtPayload).sid as string;
    const auth = `Bearer ${mine.accessToken}`;

    const foreign = await t.http().delete(`/v1/auth/sessions/${theirId}`).set('Authorization', auth).expect(404);
    expect(foreign.body.error.details.resourceType).toBe('session');
    await t.http().delete('/v1/auth/sessions/not-a-uuid').set('Authorization', auth).expect(400);
    await t.http().delete(`/v1/auth/sessions/${secondId}`).set('Authorization', auth).expect(204);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${second.accessToken}`).expect(401);
    await t.http().delete(`/v1/auth/sessions/${secondId}`).set('Authorization', auth).expect(404);
    const ownId = (jwt.decode(mine.accessToken) as jwt.JwtPayload).sid as string;
    await t.http().delete(`/v1/auth/sessions/${ownId}`).set('Authorization', auth).expect(204);
    await t.http().get('/v1/auth/me').set('Authorization', auth).expect(401);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${theirs.accessToken}`).expect(200);
  });
});

describe('idle expiry', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { REFRESH_IDLE_TTL_SECONDS: '1' } });
  });
  afterAll(() => t.close());

  it('ends a session that was not refreshed within REFRESH_IDLE_TTL_SECONDS', async () => {
    const user = await seedUser(t);
    const session = await login(t, user.username, user.password);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${session.accessToken}`).expect(200);
    await sleep(1200);
    const res = await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${session.accessToken}`).expect(401);
    expect(res.body.error.details.reason).toBe('revoked_session');
    await refresh(t, session.cookie).expect(401);
  });
});

describe('me, forced password change and change-password', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { ANALYTICS_ENABLED: 'true', ANALYTICS_SECRET: 'analytics-secret-0123456789abcdef' } });
  });
  afterAll(() => t.close());

  it('describes the caller: user with username, session, roles, no tenancy yet, and pseudonymous analytics', async () => {
    const admin = await loginAdmin(t);
    const res = await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${admin.accessToken}`).expect(200);
    const claims = jwt.decode(admin.accessToken) as jwt.JwtPayload;
    expect(res.body).toEqual({
      user: expect.objectContaining({ userId: claims.sub, username: TEST_ADMIN.username, email: TEST_ADMIN.email, isProtected: true, platformRoles: ['platform_admin'] }),
      session: expect.objectContaining({ sessionId: claims.sid, current: true }),
      platformRoles: ['platform_admin'],
      passwordChangeRequired: false,
      currentTenant: null,
      memberships: [],
      analytics: {
        schemaVersion: 1,
        subjectId: createHmac('sha256', 'analytics-secret-0123456789abcdef').update(String(claims.sub)).digest('base64url'),
        tenantSubjectIds: {},
      },
    });
    expect(res.body.analytics.subjectId).toHaveLength(43);
    expect(JSON.stringify(res.body)).not.toMatch(/password_hash|passwordHash|\$2[aby]\$/);
  });

  it('lets a session with a pending forced change use only me, change-password and logout', async () => {
    const user = await seedUser(t, { passwordChangeRequired: true });
    const session = await login(t, user.username, user.password);
    expect(session.body.passwordChangeRequired).toBe(true);
    const auth = `Bearer ${session.accessToken}`;
    const denied = await t.http().get('/v1/diagnostics/version').set('Authorization', auth).expect(403);
    expect(denied.body.error).toMatchObject({ code: 'AUTHORIZATION_FAILED', details: { reason: 'password_change_required' } });
    await t.http().get('/v1/auth/sessions').set('Authorization', auth).expect(403);
    const me = await t.http().get('/v1/auth/me').set('Authorization', auth).expect(200);
    expect(me.body.passwordChangeRequired).toBe(true);

    const changed = await t
      .http()
      .post('/v1/auth/change-password')
      .set('Authorization', auth)
      .send({ currentPassword: user.password, newPassword: 'a-brand-new-password' })
      .expect(200);
    expect(changed.body.passwordChangeRequired).toBe(false);
    expect(refreshCookieOf(changed)).not.toBeNull();
    await t.http().get('/v1/diagnostics/version').set('Authorization', auth).expect(401); // the old session is gone
    await t.http().get('/v1/diagnostics/version').set('Authorization', `Bearer ${changed.body.accessToken}`).expect(200);
    await login(t, user.username, 'a-brand-new-password');
    await t.http().post('/v1/auth/login').send({ identifier: user.username, password: user.password }).expect(401);
  });

  it('revokes every earlier session, the calling one too, and returns one new session', async () => {
    const user = await seedUser(t);
    const a = await login(t, user.username, user.password);
    const b = await login(t, user.username, user.password);
    const res = await t
      .http()
      .post('/v1/auth/change-password')
      .set('Authorization', `Bearer ${a.accessToken}`)
      .send({ currentPassword: user.password, newPassword: 'another-new-password' })
      .expect(200);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${a.accessToken}`).expect(401);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${b.accessToken}`).expect(401);
    await refresh(t, a.cookie).expect(401);
    const sessions = await t.http().get('/v1/auth/sessions').set('Authorization', `Bearer ${res.body.accessToken}`).expect(200);
    expect(sessions.body.items).toHaveLength(1);
    await refresh(t, refreshCookieOf(res)!).expect(200);
  });

  it('rejects a wrong current password, an unchanged one and one that breaks the policy', async () => {
    const user = await seedUser(t);
    const { accessToken } = await login(t, user.username, user.password);
    const auth = `Bearer ${accessToken}`;
    const cases: [Record<string, string>, string, string][] = [
      [{ currentPassword: 'wrong-password', newPassword: 'perfectly-fine-password' }, 'body.currentPassword', 'incorrect'],
      [{ currentPassword: user.password, newPassword: user.password }, 'body.newPassword', 'unchanged'],
      [{ currentPassword: user.password, newPassword: 'short' }, 'body.newPassword', 'password_policy'],
      [{ currentPassword: user.password, newPassword: 'x'.repeat(129) }, 'body.newPassword', 'password_policy'],
      [{ currentPassword: user.password, newPassword: user.email.toUpperCase() }, 'body.newPassword', 'password_policy'],
    ];
    for (const [body, path, rule] of cases) {
      const res = await t.http().post('/v1/auth/change-password').set('Authorization', auth).send(body).expect(400);
      expect(res.body.error.details.fields).toEqual([expect.objectContaining({ path, rule })]);
    }
    await t.http().get('/v1/auth/me').set('Authorization', auth).expect(200);
  });
});

describe('platform admin bootstrap', () => {
  it('creates the protected first admin once and audits it', async () => {
    const t = await startTestApp();
    try {
      const rows = await t.dataSource.query(`SELECT username, is_protected, is_platform_admin FROM users`);
      expect(rows).toEqual([{ username: TEST_ADMIN.username, is_protected: true, is_platform_admin: true }]);
      const [audit] = await t.dataSource.query(`SELECT actor_type, actor_id FROM audit_log WHERE event_type = 'user.bootstrapped'`);
      expect(audit).toEqual({ actor_type: 'system', actor_id: 'system' });

      // A second replica on the same database, configured with another admin, changes nothing.
      const second = await startTestApp({
        databaseUrl: async () => t.database.url,
        env: { PLATFORM_ADMIN_USERNAME: 'someone-else', PLATFORM_ADMIN_EMAIL: 'else@uplink.test', PLATFORM_ADMIN_PASSWORD: 'someone-else-password' },
      });
      await second.close();
      const after = await t.dataSource.query(`SELECT username FROM users`);
      expect(after).toEqual([{ username: TEST_ADMIN.username }]);
    } finally {
      await t.close();
    }
  });

  it('stops the start when the bootstrap password breaks the policy', async () => {
    await expect(startTestApp({ env: { PLATFORM_ADMIN_PASSWORD: 'too-short' } })).rejects.toThrow(
      /PLATFORM_ADMIN_PASSWORD: The password must be 12 to 128 characters long/,
    );
  });
});

describe('general rate limit per user', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past RATE_LIMIT_PER_MINUTE requests of one user, not of another, never on probes', async () => {
    const one = await seedUser(t);
    const two = await seedUser(t);
    const a = await login(t, one.username, one.password);
    const b = await login(t, two.username, two.password);
    for (let i = 0; i < 5; i++) {
      await t.http().get('/v1/diagnostics/version').set('Authorization', `Bearer ${a.accessToken}`).expect(200);
    }
    const limited = await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${a.accessToken}`).expect(429);
    expect(limited.body.error).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: expect.any(Number) } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${b.accessToken}`).expect(200);
    for (let i = 0; i < 10; i++) await t.http().get('/healthz').expect(200);
  });
});

describe('denied requests and OpenAPI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('audits a 403 on a state-changing request as denied', async () => {
    const user = await seedUser(t, { passwordChangeRequired: true });
    const { accessToken } = await login(t, user.username, user.password);
    await t.http().post('/v1/diagnostics/echo').set('Authorization', `Bearer ${accessToken}`).send({ message: 'x' }).expect(403);
    const [row] = await t.dataSource.query(
      `SELECT outcome, actor_id, route, method, metadata FROM audit_log WHERE event_type = 'access.denied'`,
    );
    expect(row).toEqual({
      outcome: 'denied',
      actor_id: user.userId,
      route: '/v1/diagnostics/echo',
      method: 'POST',
      metadata: { reason: 'password_change_required' },
    });
  });

  it('documents every auth endpoint with bearer and cookie security schemes', async () => {
    const doc = await t.http().get('/docs/openapi.json').expect(200);
    expect(doc.body.components.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      refreshCookie: { type: 'apiKey', in: 'cookie' },
    });
    for (const [path, method] of [
      ['/v1/auth/login', 'post'],
      ['/v1/auth/refresh', 'post'],
      ['/v1/auth/logout', 'post'],
      ['/v1/auth/logout-all', 'post'],
      ['/v1/auth/me', 'get'],
      ['/v1/auth/sessions', 'get'],
      ['/v1/auth/sessions/{sessionId}', 'delete'],
      ['/v1/auth/change-password', 'post'],
    ] as const) {
      expect(doc.body.paths[path]?.[method]).toBeDefined();
    }
    expect(doc.body.paths['/v1/auth/login'].post.requestBody).toBeDefined();
    expect(doc.body.paths['/v1/auth/refresh'].post.security).toEqual([{ refreshCookie: [] }]);
    expect(doc.body.components.schemas.ErrorEnvelope.properties.error.required).toEqual(['code', 'category', 'message', 'correlationId']);
    expect(doc.body.paths['/v1/auth/me'].get.responses.default.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    expect(doc.body.paths['/v1/auth/me'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MeResponse',
    });
  });
});

describe('secure refresh cookie (REFRESH_COOKIE_SECURE=true, the default)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { REFRESH_COOKIE_SECURE: 'true' } });
  });
  afterAll(() => t.close());

  it('is named __Host-platform_refresh, Secure, and accepted back under that name only', async () => {
    const user = await seedUser(t);
    const res = await t.http().post('/v1/auth/login').send({ identifier: user.username, password: user.password }).expect(200);
    const [cookie] = res.headers['set-cookie'] as unknown as string[];
    expect(cookie).toMatch(/^__Host-platform_refresh=[A-Za-z0-9_-]{43}; Max-Age=604800; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Strict$/);
    const value = cookie!.split(';')[0]!.split('=')[1]!;
    await refresh(t, `platform_refresh=${value}`).expect(401);
    await refresh(t, `__Host-platform_refresh=${value}`).expect(200);
  });
});

describe('me with tenancy', () => {
  const secret = 'analytics-secret-0123456789abcdef';
  const hmac = (id: string) => createHmac('sha256', secret).update(id).digest('base64url');
  let t: TestApp;
  let a: SeededTenant;
  let b: SeededTenant;
  let c: SeededTenant;

  const me = (token: string, query = '') => t.http().get(`/v1/auth/me${query}`).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    t = await startTestApp({ env: { ANALYTICS_ENABLED: 'true', ANALYTICS_SECRET: secret } });
    a = await seedTenant(t, { name: 'Tenant A' });
    b = await seedTenant(t, { name: 'Tenant B' });
    c = await seedTenant(t, { name: 'Tenant C' });
  });
  afterAll(() => t.close());

  it('lists the effective grants of every tenant with permissions, unit and tenant names, and pseudonymous tenant ids', async () => {
    const user = await seedUser(t);
    const site = await seedUnit(t, b, null, { name: 'Site X' });
    const disabledUnit = await seedUnit(t, b, null, { status: 'disabled' });
    const inA = await seedGrant(t, user.userId, a, 'tenant_viewer');
    const inB = await seedGrant(t, user.userId, b, 'tenant_operator', site, { includeDescendants: false });
    await seedGrant(t, user.userId, c, 'tenant_admin', null, { status: 'disabled' });
    await seedGrant(t, user.userId, b, 'tenant_admin', disabledUnit);
    const { accessToken } = await login(t, user.username, user.password);

    const res = await me(accessToken).expect(200);
    expect(res.body.memberships).toEqual([
      {
        membershipId: inA,
        tenantId: a.tenantId,
        tenantNumber: a.tenantNumber,
        tenantName: 'Tenant A',
        role: 'tenant_viewer',
        organizationUnitId: null,
        organizationUnitName: null,
        includeDescendants: true,
        permissions: permissionsOf('tenant_viewer'),
      },
      {
        membershipId: inB,
        tenantId: b.tenantId,
        tenantNumber: b.tenantNumber,
        tenantName: 'Tenant B',
        role: 'tenant_operator',
        organizationUnitId: site.organizationUnitId,
        organizationUnitName: 'Site X',
        includeDescendants: false,
        permissions: permissionsOf('tenant_operator'),
      },
    ]);
    expect(res.body.memberships[0].permissions).toEqual(expect.arrayContaining(['tenant:read', 'devices:read', 'telemetry:read']));
    expect(res.body.memberships[0].permissions).not.toContain('memberships:write');
    // Two visible tenants and none asked for: no current tenant.
    expect(res.body.currentTenant).toBeNull();
    expect(res.body.analytics).toEqual({
      schemaVersion: 1,
      subjectId: hmac(user.userId),
      tenantSubjectIds: { [String(a.tenantNumber)]: hmac(a.tenantId), [String(b.tenantNumber)]: hmac(b.tenantId) },
    });
    expect(JSON.stringify(res.body.analytics)).not.toContain(a.tenantId);

    const chosen = await me(accessToken, `?tenantNumber=${b.tenantNumber}`).expect(200);
    expect(chosen.body.currentTenant).toEqual({
      tenantId: b.tenantId,
      tenantNumber: b.tenantNumber,
      key: b.key,
      name: 'Tenant B',
      status: 'active',
      metadata: {},
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    // An invisible tenant (only a disabled grant) or a missing one is never current.
    expect((await me(accessToken, `?tenantNumber=${c.tenantNumber}`).expect(200)).body.currentTenant).toBeNull();
    expect((await me(accessToken, '?tenantNumber=2147483000').expect(200)).body.currentTenant).toBeNull();
    const bad = await me(accessToken, '?tenantNumber=zero').expect(400);
    expect(bad.body.error.details.fields[0].path).toBe('query.tenantNumber');
  });

  it('falls back to the only visible tenant, and follows grant changes on the next request', async () => {
    const user = await seedUser(t, { passwordChangeRequired: true });
    const grant = await seedGrant(t, user.userId, c, 'tenant_admin');
    const { accessToken } = await login(t, user.username, user.password);
    // A pending forced change still reads /me with its tenancy.
    const only = await me(accessToken).expect(200);
    expect(only.body.currentTenant).toMatchObject({ tenantId: c.tenantId, tenantNumber: c.tenantNumber });
    expect((await me(accessToken, `?tenantNumber=${a.tenantNumber}`).expect(200)).body.currentTenant.tenantId).toBe(c.tenantId);
    expect(only.body.analytics.tenantSubjectIds).toEqual({ [String(c.tenantNumber)]: hmac(c.tenantId) });

    await t.dataSource.query(`UPDATE memberships SET status = 'disabled' WHERE membership_id = $1`, [grant]);
    const gone = await me(accessToken).expect(200);
    expect(gone.body).toMatchObject({ currentTenant: null, memberships: [] });
    expect(gone.body.analytics.tenantSubjectIds).toEqual({});
  });

  it('gives a platform admin any queried tenant, but no default among several', async () => {
    const admin = await loginAdmin(t);
    const res = await me(admin.accessToken).expect(200);
    expect(res.body).toMatchObject({ currentTenant: null, memberships: [] });
    const chosen = await me(admin.accessToken, `?tenantNumber=${a.tenantNumber}`).expect(200);
    expect(chosen.body.currentTenant.tenantId).toBe(a.tenantId);
    expect(chosen.body.analytics.tenantSubjectIds).toEqual({ [String(a.tenantNumber)]: hmac(a.tenantId) });
  });});

describe('me of a platform admin with exactly one tenant', () => {
  it('opens that tenant by default', async () => {
    const t = await startTestApp();
    try {
      const only = await seedTenant(t);
      const { accessToken } = await loginAdmin(t);
      const res = await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${accessToken}`).expect(200);
      expect(res.body.currentTenant).toMatchObject({ tenantId: only.tenantId, tenantNumber: only.tenantNumber, key: only.key });
    } finally {
      await t.close();
    }
  });
});
