import bcrypt from 'bcrypt';
import type { Response } from 'supertest';
import { TEST_ADMIN, TEST_ORIGIN, TestApp } from './test-app';

export interface SignedIn {
  accessToken: string;
  /** `platform_refresh=<token>` ready for a Cookie header. */
  cookie: string;
  body: Record<string, unknown>;
}

export const REFRESH_COOKIE = 'platform_refresh';

export function refreshCookieOf(res: Response): string | null {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  const line = header?.find((value) => value.startsWith(`${REFRESH_COOKIE}=`));
  return line ? line.split(';')[0]! : null;
}

export async function login(t: TestApp, identifier: string, password: string): Promise<SignedIn> {
  const res = await t.http().post('/v1/auth/login').send({ identifier, password });
  if (res.status !== 200) throw new Error(`login of ${identifier} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { accessToken: res.body.accessToken, cookie: refreshCookieOf(res) ?? '', body: res.body };
}

export function loginAdmin(t: TestApp): Promise<SignedIn> {
  return login(t, TEST_ADMIN.username, TEST_ADMIN.password);
}

export function refresh(t: TestApp, cookie: string, origin = TEST_ORIGIN) {
  return t.http().post('/v1/auth/refresh').set('Origin', origin).set('Cookie', cookie);
}

let counter = 0;

/** A user written straight to the database (the users API has its own tests); returns its id and password. */
export async function seedUser(
  t: TestApp,
  overrides: Partial<{ username: string; email: string; password: string | null; status: string; passwordChangeRequired: boolean; platformAdmin: boolean }> = {},
): Promise<{ userId: string; username: string; email: string; password: string }> {
  counter += 1;
  const username = overrides.username ?? `user-${process.pid}-${counter}`;
  const email = overrides.email ?? `${username}@uplink.test`;
  const password = overrides.password === undefined ? `password-of-${username}` : overrides.password;
  const [row] = await t.dataSource.query<{ user_id: string }[]>(
    `INSERT INTO users (username, email, display_name, status, password_hash, password_change_required, is_platform_admin)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING user_id`,
    [
      username,
      email,
      `Display ${username}`,
      overrides.status ?? 'active',
      password === null ? null : await bcrypt.hash(password, 4),
      overrides.passwordChangeRequired ?? false,
      overrides.platformAdmin ?? false,
    ],
  );
  return { userId: row!.user_id, username, email, password: password ?? '' };
}
