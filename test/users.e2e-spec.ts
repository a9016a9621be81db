import { login, loginAdmin } from './support/auth';
import { startTestApp, TEST_ADMIN, TestApp } from './support/test-app';
import { as, fieldsOf } from './support/http';
import { auditRows } from './support/audit';
import { lockWaiters } from './support/wait';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface CreatedUser {
  userId: string;
  username: string;
  email: string;
  password: string;
}

let counter = 0;

/** Creates a user through the API (as the given admin); it must change its temporary password at first sign-in. */
async function createUser(
  t: TestApp,
  adminToken: string,
  overrides: Partial<{ username: string; email: string; displayName: string; metadata: Record<string, string> }> = {},
): Promise<CreatedUser> {
  counter += 1;
  const username = overrides.username ?? `member-${counter}`;
  const body = {
    username,
    email: overrides.email ?? `${username}@users.test`,
    displayName: overrides.displayName ?? `Member ${counter}`,
    temporaryPassword: `temporary-password-${counter}`,
    ...(overrides.metadata ? { metadata: overrides.metadata } : {}),
  };
  const res = await as(t, adminToken).post('/v1/users', body);
  if (res.status !== 201) throw new Error(`create ${username} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { userId: res.body.userId, username, email: body.email, password: body.temporaryPassword };
}

/** Signs the user in and clears the forced change; returns a token of a session that may call anything. */
async function activate(t: TestApp, user: CreatedUser): Promise<string> {
  const first = await login(t, user.username, user.password);
  const newPassword = `${user.password}-changed`;
  const res = await as(t, first.accessToken).post('/v1/auth/change-password', { currentPassword: user.password, newPassword });
  if (res.status !== 200) throw new Error(`change-password answered ${res.status}: ${JSON.stringify(res.body)}`);
  user.password = newPassword;
  return res.body.accessToken as string;
}

/** A second, unprotected platform admin with a usable token. */
async function createAdmin(t: TestApp, adminToken: string): Promise<{ user: CreatedUser; token: string }> {
  const user = await createUser(t, adminToken, { username: `admin-${counter + 1}` });
  await as(t, adminToken).put(`/v1/users/${user.userId}/platform-roles/platform_admin`).expect(200);
  return { user, token: await activate(t, user) };
}

/**
 * Runs `sql` in an open transaction, sends the requests, waits until `waiters` of them are blocked behind that
 * transaction's locks, then ends it (commit or rollback) and returns the responses.
 */
async function whileHolding<T>(
  t: TestApp,
  sql: string,
  params: unknown[],
  end: 'commit' | 'rollback',
  waiters: number,
  requests: () => Promise<T>[],
): Promise<T[]> {
  const runner = t.dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  try {
    await runner.query(sql, params);
    const pending = Promise.all(requests());
    await lockWaiters(t, waiters);
    await (end === 'commit' ? runner.commitTransaction() : runner.rollbackTransaction());
    return await pending;
  } finally {
    if (runner.isTransactionActive) await runner.rollbackTransaction();
    await runner.release();
  }
}

const ROUTES: [string, string][] = [
  ['get', '/v1/users'],
  ['post', '/v1/users'],
  ['get', `/v1/users/${UNKNOWN_ID}`],
  ['patch', `/v1/users/${UNKNOWN_ID}`],
  ['post', `/v1/users/${UNKNOWN_ID}/temporary-password`],
  ['put', `/v1/users/${UNKNOWN_ID}/platform-roles/platform_admin`],
  ['delete', `/v1/users/${UNKNOWN_ID}/platform-roles/platform_admin`],
  ['get', `/v1/users/${UNKNOWN_ID}/memberships`],
];

describe('users API', () => {
  let t: TestApp;
  let adminToken: string;
  let adminId: string;
  const passwordsUsed: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await loginAdmin(t);
    adminToken = admin.accessToken;
    const me = await as(t, adminToken).get('/v1/auth/me').expect(200);
    adminId = me.body.user.userId;
    passwordsUsed.push(TEST_ADMIN.password);
  });
  afterAll(() => t.close());

  describe('access', () => {
    it.each(ROUTES)('refuses %s %s without a token (401, WWW-Authenticate)', async (method, path) => {
      const http = t.http() as unknown as Record<string, (path: string) => ReturnType<ReturnType<TestApp['http']>['get']>>;
      const res = await http[method]!(path);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'AUTHENTICATION_FAILED', details: { reason: 'missing_token' } });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('refuses a signed-in user without platform_admin on every route, before validating anything (403)', async () => {
      const user = await createUser(t, adminToken);
      const token = await activate(t, user);
      const api = as(t, token) as unknown as Record<string, (path: string, body?: object) => Promise<{ status: number; body: { error: { code: string; details: { reason: string } } } }>>;
      for (const [method, path] of ROUTES) {
        // An invalid body too: the role is checked first.
        const res = await api[method]!(path, { nonsense: true });
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expect(res.body.error).toMatchObject({ code: 'AUTHORIZATION_FAILED', details: { reason: 'platform_admin_required' } });
      }
      const malformed = await as(t, token).get('/v1/users/not-a-uuid');
      expect(malformed.status).toBe(403);
    });

    it('refuses an admin whose forced password change is pending (403 password_change_required)', async () => {
      const user = await createUser(t, adminToken);
      await as(t, adminToken).put(`/v1/users/${user.userId}/platform-roles/platform_admin`).expect(200);
      const pending = await login(t, user.username, user.password);
      expect(pending.body.passwordChangeRequired).toBe(true);
      const res = await as(t, pending.accessToken).get('/v1/users').expect(403);
      expect(res.body.error.details).toEqual({ reason: 'password_change_required' });
      await as(t, pending.accessToken).post('/v1/users', {}).expect(403);
    });
  });

  describe('POST /v1/users', () => {
    it('creates the user with a forced-change credential: 201, Location, no username in the body', async () => {
      const body = {
        username: 'Grace.Hopper',
        email: 'grace@users.test',
        displayName: 'Grace Hopper',
        temporaryPassword: 'a-temporary-password-1',
        metadata: { team: 'compilers', site: 'Arlington' },
      };
      passwordsUsed.push(body.temporaryPassword);
      const res = await as(t, adminToken).post('/v1/users', body).expect(201);
      expect(res.body).toEqual({
        userId: expect.stringMatching(UUID),
        email: 'grace@users.test',
        displayName: 'Grace Hopper',
        status: 'active',
        metadata: { team: 'compilers', site: 'Arlington' },
        platformRoles: [],
        isProtected: false,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(res.headers.location).toBe(`/v1/users/${res.body.userId}`);
      expect(res.headers['cache-control']).toBe('no-store');

      const [row] = await t.dataSource.query<{ password_change_required: boolean; password_hash: string }[]>(
        'SELECT password_change_required, password_hash FROM users WHERE user_id = $1',
        [res.body.userId],
      );
      expect(row).toMatchObject({ password_change_required: true, password_hash: expect.stringMatching(/^\$2[aby]\$/) });

      const read = await as(t, adminToken).get(res.headers.location!).expect(200);
      expect(read.body).toEqual({ ...res.body, username: 'Grace.Hopper' });
      const signedIn = await login(t, 'grace.hopper', body.temporaryPassword);
      expect(signedIn.body.passwordChangeRequired).toBe(true);

      const [audit] = await auditRows(t, 'user', res.body.userId, 'user.created');
      expect(audit).toMatchObject({ action: 'create', actor_type: 'user', actor_id: adminId, outcome: 'success' });
    });

    it('defaults metadata to an empty map', async () => {
      const user = await createUser(t, adminToken);
      const res = await as(t, adminToken).get(`/v1/users/${user.userId}`).expect(200);
      expect(res.body.metadata).toEqual({});
    });

    it('names every missing field', async () => {
      const res = await as(t, adminToken).post('/v1/users', {}).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(fieldsOf(res)).toEqual([
        { path: 'body.username', rule: 'required' },
        { path: 'body.email', rule: 'required' },
        { path: 'body.displayName', rule: 'required' },
        { path: 'body.temporaryPassword', rule: 'required' },
      ]);
    });

    const valid = { username: 'valid-user', email: 'valid-user@users.test', displayName: 'Valid', temporaryPassword: 'long-enough-password' };
    it.each<[string, Record<string, unknown>, string, string]>([
      ['a username against the pattern', { username: '-dash-first' }, 'body.username', 'pattern'],
      ['a too short username', { username: 'ab' }, 'body.username', 'min_length'],
      ['a malformed e-mail', { email: 'valid-user.users.test' }, 'body.email', 'format'],
      ['a blank display name', { displayName: '   ' }, 'body.displayName', 'blank'],
      ['a 201-character display name', { displayName: 'x'.repeat(201) }, 'body.displayName', 'max_length'],
      ['a short temporary password', { temporaryPassword: 'short' }, 'body.temporaryPassword', 'password_policy'],
      ['a password equal to the username', { temporaryPassword: 'VALID-USER-LONGER', username: 'valid-user-longer' }, 'body.temporaryPassword', 'password_policy'],
      ['a password equal to the e-mail', { temporaryPassword: 'Valid-User@Users.Test' }, 'body.temporaryPassword', 'password_policy'],
      ['51 metadata properties', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'body.metadata', 'max_properties'],
      ['a non-string metadata value', { metadata: { floor: 3 } }, 'body.metadata', 'type'],
      ['a metadata value over 1024 characters', { metadata: { note: 'n'.repeat(1025) } }, 'body.metadata', 'max_length'],
      ['an unknown property', { isPlatformAdmin: true }, 'body.isPlatformAdmin', 'unknown_property'],
    ])('rejects %s', async (_case, change, path, rule) => {
      const res = await as(t, adminToken).post('/v1/users', { ...valid, ...change }).expect(400);
      expect(fieldsOf(res)).toEqual([{ path, rule }]);
    });

    it('refuses duplicates case-insensitively with 409 duplicate_username / duplicate_email', async () => {
      const existing = await createUser(t, adminToken, { username: 'Dup.Candidate', email: 'Dup.Candidate@Users.Test' });
      const base = { displayName: 'Dup', temporaryPassword: 'long-enough-password' };
      const byName = await as(t, adminToken)
        .post('/v1/users', { ...base, username: 'dup.CANDIDATE', email: 'other-dup@users.test' })
        .expect(409);
      expect(byName.body.error).toMatchObject({ code: 'CONFLICT', category: 'conflict', details: { reason: 'duplicate_username' } });
      const byEmail = await as(t, adminToken)
        .post('/v1/users', { ...base, username: 'other-dup', email: existing.email.toLowerCase() })
        .expect(409);
      expect(byEmail.body.error.details).toEqual({ reason: 'duplicate_email' });
      const adminsEmail = await as(t, adminToken)
        .post('/v1/users', { ...base, username: 'other-dup', email: TEST_ADMIN.email.toUpperCase() })
        .expect(409);
      expect(adminsEmail.body.error.details).toEqual({ reason: 'duplicate_email' });
    });

    it('answers concurrent creations of one name with exactly one 201 and 409s, never a 500', async () => {
      const attempts = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          as(t, adminToken).post('/v1/users', {
            username: i % 2 ? 'racer' : 'RACER',
            email: `racer-${i}@users.test`,
            displayName: 'Racer',
            temporaryPassword: 'long-enough-password',
          }),
        ),
      );
      const statuses = attempts.map((res) => res.status).sort();
      expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
      for (const res of attempts.filter((attempt) => attempt.status === 409)) {
        expect(res.body.error.details).toEqual({ reason: 'duplicate_username' });
      }
    });

    it('answers 409, not 500, when the unique index catches a duplicate the check could not see yet', async () => {
      // A concurrent transaction has inserted the name but not committed: the check passes, the INSERT waits.
      const insert = `INSERT INTO users (username, email, display_name) VALUES ($1, $2, 'Held')`;
      const base = { displayName: 'Late', temporaryPassword: 'long-enough-password' };
      const [byName] = await whileHolding(t, insert, ['held-name', 'held-name@users.test'], 'commit', 1, () => [
        as(t, adminToken).post('/v1/users', { ...base, username: 'HELD-NAME', email: 'late-1@users.test' }).then((res) => res),
      ]);
      expect(byName!.status).toBe(409);
      expect(byName!.body.error.details).toEqual({ reason: 'duplicate_username' });

      const user = await createUser(t, adminToken);
      const [byEmail] = await whileHolding(t, insert, ['held-mail', 'Held.Mail@users.test'], 'commit', 1, () => [
        as(t, adminToken).patch(`/v1/users/${user.userId}`, { email: 'held.mail@USERS.test' }).then((res) => res),
      ]);
      expect(byEmail!.status).toBe(409);
      expect(byEmail!.body.error.details).toEqual({ reason: 'duplicate_email' });
    });
  });

  describe('GET /v1/users/{userId}', () => {
    it('returns the user with its username', async () => {
      const res = await as(t, adminToken).get(`/v1/users/${adminId}`).expect(200);
      expect(res.body).toEqual({
        userId: adminId,
        username: TEST_ADMIN.username,
        email: TEST_ADMIN.email,
        displayName: 'Platform Administrator',
        status: 'active',
        metadata: {},
        platformRoles: ['platform_admin'],
        isProtected: true,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
    });

    it('answers 404 for an unknown user and 400 for a malformed id', async () => {
      const missing = await as(t, adminToken).get(`/v1/users/${UNKNOWN_ID}`).expect(404);
      expect(missing.body.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resourceType: 'user' } });
      const malformed = await as(t, adminToken).get('/v1/users/not-a-uuid').expect(400);
      expect(fieldsOf(malformed)).toEqual([{ path: 'params.userId', rule: 'format' }]);
    });
  });

  describe('GET /v1/users', () => {
    const pageUsers: CreatedUser[] = [];

    beforeAll(async () => {
      for (let i = 0; i < 30; i += 1) {
        pageUsers.push(await createUser(t, adminToken, { username: `pager-${String(i).padStart(2, '0')}`, displayName: `Pager ${i}` }));
      }
    });

    it('pages 30 matches as 25 + 5 in creation order with an exact totalCount and users with username', async () => {
      const first = await as(t, adminToken).get('/v1/users?q=pager-').expect(200);
      expect(first.body.totalCount).toBe(30);
      expect(first.body.items).toHaveLength(25);
      expect(first.body.nextCursor).toMatch(/^[A-Za-z0-9_-]{1,512}$/);
      expect(first.body.items[0]).toEqual(expect.objectContaining({ username: 'pager-00', platformRoles: [], isProtected: false }));

      const second = await as(t, adminToken).get(`/v1/users?q=pager-&cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body.totalCount).toBe(30);
      expect(second.body.items).toHaveLength(5);
      expect(second.body).not.toHaveProperty('nextCursor');

      const ids = [...first.body.items, ...second.body.items].map((user: { userId: string }) => user.userId);
      expect(ids).toEqual(pageUsers.map((user) => user.userId));
    });

    it('counts every user without filters and honours limit 50 and 100', async () => {
      const [{ count }] = await t.dataSource.query<{ count: number }[]>('SELECT count(*)::int AS count FROM users');
      const all = await as(t, adminToken).get('/v1/users?limit=100').expect(200);
      expect(all.body.totalCount).toBe(count);
      expect(all.body.items).toHaveLength(Math.min(count, 100));
      expect(all.body.items[0].userId).toBe(adminId); // the bootstrapped admin is the oldest
      const fifty = await as(t, adminToken).get('/v1/users?limit=50').expect(200);
      expect(fifty.body.items).toHaveLength(Math.min(count, 50));
      expect(fifty.body.items.map((user: { userId: string }) => user.userId)).toEqual(
        all.body.items.slice(0, 50).map((user: { userId: string }) => user.userId),
      );
    });

    it('searches username, e-mail and display name case-insensitively, filters by status', async () => {
      const byName = await as(t, adminToken).get('/v1/users?q=PAGER-0').expect(200);
      expect(byName.body.totalCount).toBe(10);
      const byDisplayName = await as(t, adminToken).get(`/v1/users?q=${encodeURIComponent('pager 17')}`).expect(200);
      expect(byDisplayName.body.items.map((user: { username: string }) => user.username)).toEqual(['pager-17']);
      const byEmail = await as(t, adminToken).get('/v1/users?q=pager-29@USERS').expect(200);
      expect(byEmail.body.items.map((user: { username: string }) => user.username)).toEqual(['pager-29']);

      await as(t, adminToken).patch(`/v1/users/${pageUsers[3]!.userId}`, { status: 'disabled' }).expect(200);
      const disabled = await as(t, adminToken).get('/v1/users?q=pager-&status=disabled').expect(200);
      expect(disabled.body).toEqual({ items: [expect.objectContaining({ username: 'pager-03', status: 'disabled' })], totalCount: 1 });
      const active = await as(t, adminToken).get('/v1/users?q=pager-&status=active').expect(200);
      expect(active.body.totalCount).toBe(29);
    });

    it('takes LIKE wildcards in q literally', async () => {
      await createUser(t, adminToken, { username: 'wild-literal', displayName: 'Deal 50%_off' });
      await createUser(t, adminToken, { username: 'wild-lookalike', displayName: 'Deal 50xyoff' });
      const res = await as(t, adminToken).get(`/v1/users?q=${encodeURIComponent('50%_off')}`).expect(200);
      expect(res.body.items.map((user: { username: string }) => user.username)).toEqual(['wild-literal']);
      const backslash = await as(t, adminToken).get(`/v1/users?q=${encodeURIComponent('\\')}`).expect(200);
      expect(backslash.body.totalCount).toBe(0);
    });

    it('continues exactly at microsecond precision, breaking ties by id', async () => {
      // 26 rows in one millisecond (two share a microsecond): a cursor rounded to milliseconds would repeat rows.
      await t.dataSource.query(
        `INSERT INTO users (username, email, display_name, created_at)
         SELECT 'micro-' || i, 'micro-' || i || '@users.test', 'Micro ' || i,
                timestamptz '2030-01-01T00:00:00.000100Z' + make_interval(secs => least(i, 24) / 1000000.0)
           FROM generate_series(0, 25) AS i`,
      );
      const expected = await t.dataSource.query<{ user_id: string }[]>(
        `SELECT user_id FROM users WHERE username LIKE 'micro-%' ORDER BY created_at, user_id`,
      );
      const first = await as(t, adminToken).get('/v1/users?q=micro-').expect(200);
      const second = await as(t, adminToken).get(`/v1/users?q=micro-&cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body.items).toHaveLength(1);
      expect([...first.body.items, ...second.body.items].map((user: { userId: string }) => user.userId)).toEqual(
        expected.map((row) => row.user_id),
      );
    });

    it('refuses a cursor reused with other filters, limit or caller (cursor_mismatch) and a tampered one (cursor_invalid)', async () => {
      const first = await as(t, adminToken).get('/v1/users?q=pager-').expect(200);
      const cursor = first.body.nextCursor as string;
      for (const query of [`q=pager-1&cursor=${cursor}`, `cursor=${cursor}`, `q=pager-&status=active&cursor=${cursor}`, `q=pager-&limit=50&cursor=${cursor}`]) {
        const res = await as(t, adminToken).get(`/v1/users?${query}`).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
      }
      const other = await createAdmin(t, adminToken);
      const foreign = await as(t, other.token).get(`/v1/users?q=pager-&cursor=${cursor}`).expect(400);
      expect(fieldsOf(foreign)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);

      const flipped = `${cursor.slice(0, 10)}${cursor[10] === 'A' ? 'B' : 'A'}${cursor.slice(11)}`;
      for (const bad of [flipped, `${cursor}A`, 'garbage', 'not%20base64']) {
        const res = await as(t, adminToken).get(`/v1/users?q=pager-&cursor=${bad}`).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'query.cursor', rule: 'cursor_invalid' }]);
      }
    });

    it.each<[string, string, string]>([
      ['limit=30', 'query.limit', 'enum'],
      ['limit=ten', 'query.limit', 'type'],
      ['status=retired', 'query.status', 'enum'],
      [`q=${'q'.repeat(101)}`, 'query.q', 'max_length'],
      [`cursor=${'A'.repeat(513)}`, 'query.cursor', 'max_length'],
      ['offset=25', 'query.offset', 'unknown_property'],
    ])('rejects %s', async (query, path, rule) => {
      const res = await as(t, adminToken).get(`/v1/users?${query}`).expect(400);
      expect(fieldsOf(res)).toEqual([{ path, rule }]);
    });
  });

  describe('PATCH /v1/users/{userId}', () => {
    it('changes the given fields, replaces metadata, bumps updatedAt and audits user.updated', async () => {
      const user = await createUser(t, adminToken, { metadata: { old: 'value', kept: 'no' } });
      const before = await as(t, adminToken).get(`/v1/users/${user.userId}`).expect(200);
      await sleep(5);
      const res = await as(t, adminToken)
        .patch(`/v1/users/${user.userId}`, { displayName: 'Renamed', email: 'renamed@users.test', username: 'renamed-user', metadata: { fresh: 'map' } })
        .expect(200);
      expect(res.body).toEqual({
        ...before.body,
        displayName: 'Renamed',
        email: 'renamed@users.test',
        username: 'renamed-user',
        metadata: { fresh: 'map' },
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(before.body.updatedAt));
      const audit = await auditRows(t, 'user', user.userId, 'user.updated');
      expect(audit).toEqual([
        expect.objectContaining({
          action: 'update',
          actor_id: adminId,
          metadata: { changedFields: ['username', 'email', 'displayName', 'metadata'] },
        }),
      ]);
    });

    it('writes nothing for values equal to the current ones (same status: 200 no-op)', async () => {
      const user = await createUser(t, adminToken, { displayName: 'Same Name' });
      const before = await as(t, adminToken).get(`/v1/users/${user.userId}`).expect(200);
      const res = await as(t, adminToken).patch(`/v1/users/${user.userId}`, { status: 'active', displayName: 'Same Name' }).expect(200);
      expect(res.body).toEqual(before.body);
      expect(await auditRows(t, 'user', user.userId, 'user.updated')).toEqual([]);
      expect(await auditRows(t, 'user', user.userId, 'user.reactivated')).toEqual([]);
    });

    it('needs at least one property and validates each', async () => {
      const user = await createUser(t, adminToken);
      const empty = await as(t, adminToken).patch(`/v1/users/${user.userId}`, {}).expect(400);
      expect(fieldsOf(empty)).toEqual([{ path: 'body', rule: 'min_properties' }]);
      const noBody = await as(t, adminToken).patch(`/v1/users/${user.userId}`).expect(400);
      expect(fieldsOf(noBody)).toEqual([{ path: 'body', rule: 'min_properties' }]);
      const bad = await as(t, adminToken)
        .patch(`/v1/users/${user.userId}`, { status: 'retired', displayName: '', username: 'x y', email: 'nope', metadata: [] })
        .expect(400);
      expect(fieldsOf(bad)).toEqual([
        { path: 'body.username', rule: 'pattern' },
        { path: 'body.email', rule: 'format' },
        { path: 'body.displayName', rule: 'blank' },
        { path: 'body.status', rule: 'enum' },
        { path: 'body.metadata', rule: 'type' },
      ]);
      const password = await as(t, adminToken).patch(`/v1/users/${user.userId}`, { temporaryPassword: 'long-enough-password' }).expect(400);
      expect(fieldsOf(password)).toEqual([{ path: 'body.temporaryPassword', rule: 'unknown_property' }]);
      // Validation comes before the lookup.
      await as(t, adminToken).patch(`/v1/users/${UNKNOWN_ID}`, {}).expect(400);
      const missing = await as(t, adminToken).patch(`/v1/users/${UNKNOWN_ID}`, { displayName: 'X' }).expect(404);
      expect(missing.body.error.details).toEqual({ resourceType: 'user' });
    });

    it('refuses duplicates case-insensitively but lets a user change the case of its own name', async () => {
      const taken = await createUser(t, adminToken);
      const user = await createUser(t, adminToken);
      const byName = await as(t, adminToken).patch(`/v1/users/${user.userId}`, { username: taken.username.toUpperCase() }).expect(409);
      expect(byName.body.error.details).toEqual({ reason: 'duplicate_username' });
      const byEmail = await as(t, adminToken).patch(`/v1/users/${user.userId}`, { email: taken.email.toUpperCase() }).expect(409);
      expect(byEmail.body.error.details).toEqual({ reason: 'duplicate_email' });
      const own = await as(t, adminToken)
        .patch(`/v1/users/${user.userId}`, { username: user.username.toUpperCase(), email: user.email.toUpperCase() })
        .expect(200);
      expect(own.body).toMatchObject({ username: user.username.toUpperCase(), email: user.email.toUpperCase() });
    });

    it('disables: the user’s live token gets 401 revoked_session at once, sessions are revoked, audited; reactivation restores sign-in', async () => {
      const user = await createUser(t, adminToken);
      const token = await activate(t, user);
      await as(t, token).get('/v1/auth/me').expect(200);

      const res = await as(t, adminToken).patch(`/v1/users/${user.userId}`, { status: 'disabled' }).expect(200);
      expect(res.body.status).toBe('disabled');
      const denied = await as(t, token).get('/v1/auth/me').expect(401);
      expect(denied.body.error.details).toEqual({ reason: 'revoked_session' });
      expect(denied.headers['www-authenticate']).toMatch(/^Bearer/);
      const sessions = await t.dataSource.query<{ revoke_reason: string | null }[]>(
        `SELECT revoke_reason FROM sessions WHERE user_id = $1 AND revoke_reason IS DISTINCT FROM 'password_changed'`,
        [user.userId],
      );
      expect(sessions).toEqual([{ revoke_reason: 'user_disabled' }]);
      await t.http().post('/v1/auth/login').send({ identifier: user.username, password: user.password }).expect(401);
      expect(await auditRows(t, 'user', user.userId, 'user.disabled')).toEqual([
        expect.objectContaining({
          action: 'disable',
          actor_id: adminId,
          metadata: { changedFields: ['status'], status: { before: 'active', after: 'disabled' }, revokedSessions: 1 },
        }),
      ]);

      // Disabling again changes nothing.
      await as(t, adminToken).patch(`/v1/users/${user.userId}`, { status: 'disabled' }).expect(200);
      expect(await auditRows(t, 'user', user.userId, 'user.disabled')).toHaveLength(1);

      const back = await as(t, adminToken).patch(`/v1/users/${user.userId}`, { status: 'active' }).expect(200);
      expect(back.body.status).toBe('active');
      expect(await auditRows(t, 'user', user.userId, 'user.reactivated')).toEqual([
        expect.objectContaining({ action: 'reactivate', metadata: { changedFields: ['status'], status: { before: 'disabled', after: 'active' } } }),
      ]);
      await login(t, user.username, user.password);
    });

    it('refuses to disable a protected user (409 protected_user), whoever asks', async () => {
      const other = await createAdmin(t, adminToken);
      const byOther = await as(t, other.token).patch(`/v1/users/${adminId}`, { status: 'disabled' }).expect(409);
      expect(byOther.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'protected_user' } });
      const bySelf = await as(t, adminToken).patch(`/v1/users/${adminId}`, { status: 'disabled' }).expect(409);
      expect(bySelf.body.error.details).toEqual({ reason: 'protected_user' });
      const [row] = await t.dataSource.query<{ status: string }[]>('SELECT status FROM users WHERE user_id = $1', [adminId]);
      expect(row!.status).toBe('active');
    });

    it('refuses to let an admin disable themself (409 self_lockout)', async () => {
      const other = await createAdmin(t, adminToken);
      const res = await as(t, other.token).patch(`/v1/users/${other.user.userId}`, { status: 'disabled' }).expect(409);
      expect(res.body.error.details).toEqual({ reason: 'self_lockout' });
      await as(t, other.token).get('/v1/users?limit=25').expect(200);
      // Other changes to oneself are fine.
      await as(t, other.token).patch(`/v1/users/${other.user.userId}`, { displayName: 'Still Me' }).expect(200);
    });

    it('lets an admin disable another, unprotected admin', async () => {
      const other = await createAdmin(t, adminToken);
      await as(t, adminToken).patch(`/v1/users/${other.user.userId}`, { status: 'disabled' }).expect(200);
      await as(t, other.token).get('/v1/users').expect(401);
    });
  });

  describe('POST /v1/users/{userId}/temporary-password', () => {
    it('sets the forced-change flag and revokes every session of the user', async () => {
      const user = await createUser(t, adminToken);
      const token = await activate(t, user);
      const oldPassword = user.password;
      const temporaryPassword = 'a-brand-new-temporary-pw';
      passwordsUsed.push(oldPassword, temporaryPassword);

      const res = await as(t, adminToken).post(`/v1/users/${user.userId}/temporary-password`, { temporaryPassword }).expect(200);
      expect(res.body).toMatchObject({ userId: user.userId, username: user.username, status: 'active' });
      expect(res.body).not.toHaveProperty('passwordHash');
      expect(JSON.stringify(res.body)).not.toContain(temporaryPassword);

      const denied = await as(t, token).get('/v1/auth/me').expect(401);
      expect(denied.body.error.details).toEqual({ reason: 'revoked_session' });
      const revoked = await t.dataSource.query<{ revoke_reason: string }[]>(
        `SELECT revoke_reason FROM sessions WHERE user_id = $1 AND revoke_reason = 'temporary_password'`,
        [user.userId],
      );
      expect(revoked).toHaveLength(1);
      await t.http().post('/v1/auth/login').send({ identifier: user.username, password: oldPassword }).expect(401);
      const again = await login(t, user.username, temporaryPassword);
      expect(again.body.passwordChangeRequired).toBe(true);
      await as(t, again.accessToken).get('/v1/auth/me').expect(200);
      expect(await auditRows(t, 'user', user.userId, 'user.temporary_password_set')).toEqual([
        expect.objectContaining({ action: 'set_temporary_password', actor_id: adminId, metadata: { revokedSessions: 1 } }),
      ]);
    });

    it('refuses a protected user (409 protected_user) and the caller themself (409 self_target)', async () => {
      const other = await createAdmin(t, adminToken);
      const body = { temporaryPassword: 'long-enough-password' };
      const protectedUser = await as(t, other.token).post(`/v1/users/${adminId}/temporary-password`, body).expect(409);
      expect(protectedUser.body.error.details).toEqual({ reason: 'protected_user' });
      const self = await as(t, other.token).post(`/v1/users/${other.user.userId}/temporary-password`, body).expect(409);
      expect(self.body.error.details).toEqual({ reason: 'self_target' });
      await as(t, other.token).get('/v1/auth/me').expect(200);
    });

    it('applies the password policy and validates before looking the user up', async () => {
      // Long enough that "equal to the username" is what breaks the policy, not the length.
      const user = await createUser(t, adminToken, { username: 'policy-target-user' });
      const path = `/v1/users/${user.userId}/temporary-password`;
      for (const temporaryPassword of ['too-short', user.username.toUpperCase(), user.email]) {
        const res = await as(t, adminToken).post(path, { temporaryPassword }).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'body.temporaryPassword', rule: 'password_policy' }]);
      }
      const missing = await as(t, adminToken).post(path, {}).expect(400);
      expect(fieldsOf(missing)).toEqual([{ path: 'body.temporaryPassword', rule: 'required' }]);
      await as(t, adminToken).post(`/v1/users/${UNKNOWN_ID}/temporary-password`, { temporaryPassword: 'short' }).expect(400);
      const unknown = await as(t, adminToken)
        .post(`/v1/users/${UNKNOWN_ID}/temporary-password`, { temporaryPassword: 'long-enough-password' })
        .expect(404);
      expect(unknown.body.error.details).toEqual({ resourceType: 'user' });
    });
  });

  describe('platform role', () => {
    it('grants idempotently; the role works on the user’s existing token', async () => {
      const user = await createUser(t, adminToken);
      const token = await activate(t, user);
      await as(t, token).get('/v1/users').expect(403);
      const role = `/v1/users/${user.userId}/platform-roles/platform_admin`;
      const first = await as(t, adminToken).put(role).expect(200);
      expect(first.body).toMatchObject({ userId: user.userId, username: user.username, platformRoles: ['platform_admin'] });
      const second = await as(t, adminToken).put(role).expect(200);
      expect(second.body).toEqual(first.body);
      await as(t, token).get('/v1/users').expect(200);
      expect(await auditRows(t, 'user', user.userId, 'user.platform_role_granted')).toEqual([
        expect.objectContaining({ action: 'grant_platform_role', actor_id: adminId, metadata: { role: 'platform_admin' } }),
      ]);
    });

    it('revokes idempotently; the user loses access on the next request', async () => {
      const other = await createAdmin(t, adminToken);
      const role = `/v1/users/${other.user.userId}/platform-roles/platform_admin`;
      const first = await as(t, adminToken).delete(role).expect(200);
      expect(first.body.platformRoles).toEqual([]);
      const second = await as(t, adminToken).delete(role).expect(200);
      expect(second.body).toEqual(first.body);
      const denied = await as(t, other.token).get('/v1/users').expect(403);
      expect(denied.body.error.details).toEqual({ reason: 'platform_admin_required' });
      expect(await auditRows(t, 'user', other.user.userId, 'user.platform_role_revoked')).toEqual([
        expect.objectContaining({ action: 'revoke_platform_role', actor_id: adminId, metadata: { role: 'platform_admin' } }),
      ]);
    });

    it('refuses to demote a protected user or oneself', async () => {
      const other = await createAdmin(t, adminToken);
      const protectedUser = await as(t, other.token).delete(`/v1/users/${adminId}/platform-roles/platform_admin`).expect(409);
      expect(protectedUser.body.error.details).toEqual({ reason: 'protected_user' });
      const self = await as(t, other.token).delete(`/v1/users/${other.user.userId}/platform-roles/platform_admin`).expect(409);
      expect(self.body.error.details).toEqual({ reason: 'self_lockout' });
      await as(t, other.token).get('/v1/users').expect(200);
    });

    it('answers 404 for an unknown user, 400 for a malformed id, and knows no other role', async () => {
      await as(t, adminToken).put(`/v1/users/${UNKNOWN_ID}/platform-roles/platform_admin`).expect(404);
      await as(t, adminToken).delete(`/v1/users/${UNKNOWN_ID}/platform-roles/platform_admin`).expect(404);
      const malformed = await as(t, adminToken).put('/v1/users/nope/platform-roles/platform_admin').expect(400);
      expect(fieldsOf(malformed)).toEqual([{ path: 'params.userId', rule: 'format' }]);
      await as(t, adminToken).put(`/v1/users/${adminId}/platform-roles/tenant_admin`).expect(404);
    });
  });

  describe('GET /v1/users/{userId}/memberships', () => {
    it('answers an empty page for a known user and 404 for an unknown one', async () => {
      const user = await createUser(t, adminToken);
      const res = await as(t, adminToken).get(`/v1/users/${user.userId}/memberships`).expect(200);
      expect(res.body).toEqual({ items: [], totalCount: 0 });
      await as(t, adminToken).get(`/v1/users/${user.userId}/memberships?status=active&tenantId=${UNKNOWN_ID}&limit=100`).expect(200);
      const missing = await as(t, adminToken).get(`/v1/users/${UNKNOWN_ID}/memberships`).expect(404);
      expect(missing.body.error.details).toEqual({ resourceType: 'user' });
    });

    it('validates the query, cursors included', async () => {
      const path = `/v1/users/${adminId}/memberships`;
      const usersCursor = (await as(t, adminToken).get('/v1/users?limit=25').expect(200)).body.nextCursor as string;
      expect(usersCursor).toEqual(expect.any(String));
      const cases: [string, string, string][] = [
        ['status=gone', 'query.status', 'enum'],
        ['tenantId=tenant-1', 'query.tenantId', 'format'],
        ['limit=10', 'query.limit', 'enum'],
        ['cursor=garbage', 'query.cursor', 'cursor_invalid'],
        [`cursor=${usersCursor}`, 'query.cursor', 'cursor_mismatch'],
        ['role=tenant_admin', 'query.role', 'unknown_property'],
      ];
      for (const [query, fieldPath, rule] of cases) {
        const res = await as(t, adminToken).get(`${path}?${query}`).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: fieldPath, rule }]);
      }
      // A bad cursor is a 400 even for an unknown user (validation before lookup).
      await as(t, adminToken).get(`/v1/users/${UNKNOWN_ID}/memberships?cursor=garbage`).expect(400);
    });
  });

  describe('audit and documentation', () => {
    it('records every kind of user change, by the acting admin, without passwords or hashes', async () => {
      const rows = await t.dataSource.query<{ event_type: string; actor_type: string; outcome: string; entity_type: string }[]>(
        `SELECT event_type, actor_type, outcome, entity_type FROM audit_log WHERE event_type LIKE 'user.%' AND actor_type = 'user'`,
      );
      const types = new Set(rows.map((row) => row.event_type));
      for (const eventType of [
        'user.created',
        'user.updated',
        'user.disabled',
        'user.reactivated',
        'user.temporary_password_set',
        'user.platform_role_granted',
        'user.platform_role_revoked',
      ]) {
        expect(types).toContain(eventType);
      }
      expect(rows.every((row) => row.outcome === 'success' && row.entity_type === 'user')).toBe(true);

      const audit = JSON.stringify(await t.dataSource.query('SELECT * FROM audit_log'));
      const hashes = await t.dataSource.query<{ password_hash: string }[]>('SELECT password_hash FROM users WHERE password_hash IS NOT NULL');
      expect(hashes.length).toBeGreaterThan(30);
      for (const secret of [...passwordsUsed, ...hashes.map((row) => row.password_hash)]) {
        expect(audit).not.toContain(secret);
      }
      expect(audit).not.toMatch(/temporaryPassword|passwordHash|password_hash/);
    });

    it('documents the users endpoints with bearer security', async () => {
      const doc = await t.http().get('/docs/openapi.json').expect(200);
      const paths = doc.body.paths as Record<string, Record<string, { tags: string[]; security: unknown[] }>>;
      const expected: [string, string][] = [
        ['/v1/users', 'get'],
        ['/v1/users', 'post'],
        ['/v1/users/{userId}', 'get'],
        ['/v1/users/{userId}', 'patch'],
        ['/v1/users/{userId}/temporary-password', 'post'],
        ['/v1/users/{userId}/platform-roles/platform_admin', 'put'],
        ['/v1/users/{userId}/platform-roles/platform_admin', 'delete'],
        ['/v1/users/{userId}/memberships', 'get'],
      ];
      for (const [path, method] of expected) {
        const operation = paths[path]?.[method];
        expect([path, method, operation?.tags]).toEqual([path, method, ['users']]);
        expect(operation?.security).toEqual([{ bearer: [] }]);
      }
      expect(doc.body.components.schemas.UserPage.properties).toEqual(
        expect.objectContaining({ items: expect.anything(), nextCursor: expect.anything(), totalCount: expect.anything() }),
      );
    });
  });
});

describe('last platform admin', () => {
  let t: TestApp;
  let b: { user: CreatedUser; token: string };
  let c: { user: CreatedUser; token: string };

  beforeAll(async () => {
    t = await startTestApp();
    const root = (await loginAdmin(t)).accessToken;
    b = await createAdmin(t, root);
    c = await createAdmin(t, root);
    // Leave B and C as the only platform admins: the bootstrapped (protected) admin would otherwise always remain.
    await t.dataSource.query(`UPDATE users SET is_platform_admin = false WHERE username = $1`, [TEST_ADMIN.username]);
  });
  afterAll(() => t.close());

  /**
   * Sends both requests while the test holds the admins' row locks and lets them go once both are queued:
   * whichever runs second must see the first one's change.
   */
  function raceUnderLock<T>(requests: () => Promise<T>[]): Promise<T[]> {
    return whileHolding(t, `SELECT user_id FROM users WHERE is_platform_admin ORDER BY user_id FOR UPDATE`, [], 'rollback', 2, requests);
  }

  it('lets only one of two admins demoting each other at once succeed (409 last_platform_admin)', async () => {
    const results = await raceUnderLock(() => [
      as(t, b.token).delete(`/v1/users/${c.user.userId}/platform-roles/platform_admin`).then((res) => res),
      as(t, c.token).delete(`/v1/users/${b.user.userId}/platform-roles/platform_admin`).then((res) => res),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(results.find((res) => res.status === 409)!.body.error.details).toEqual({ reason: 'last_platform_admin' });
    const [{ admins }] = await t.dataSource.query<{ admins: number }[]>(
      `SELECT count(*)::int AS admins FROM users WHERE is_platform_admin AND status = 'active'`,
    );
    expect(admins).toBe(1);
  });

  it('lets only one of two admins disabling each other at once succeed (409 last_platform_admin)', async () => {
    await t.dataSource.query(`UPDATE users SET is_platform_admin = true WHERE user_id IN ($1, $2)`, [b.user.userId, c.user.userId]);
    const results = await raceUnderLock(() => [
      as(t, b.token).patch(`/v1/users/${c.user.userId}`, { status: 'disabled' }).then((res) => res),
      as(t, c.token).patch(`/v1/users/${b.user.userId}`, { status: 'disabled' }).then((res) => res),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(results.find((res) => res.status === 409)!.body.error.details).toEqual({ reason: 'last_platform_admin' });
    const [{ admins }] = await t.dataSource.query<{ admins: number }[]>(
      `SELECT count(*)::int AS admins FROM users WHERE is_platform_admin AND status = 'active'`,
    );
    expect(admins).toBe(1);
  });
});
