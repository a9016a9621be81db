import type { TenantRole } from '../../src/shared/access/permissions';
import { login, seedUser } from './auth';
import { as } from './http';
import { seedGrant, SeededTenant, SeededUnit } from './tenancy';
import type { TestApp } from './test-app';

/** A signed-in user with one grant. */
export interface Member {
  user: Awaited<ReturnType<typeof seedUser>>;
  userId: string;
  membershipId: string;
  token: string;
  api: ReturnType<typeof as>;
}

/** A new user with one active grant on `tenant` (or on `unit`, with or without its descendants), signed in. */
export async function member(
  t: TestApp,
  tenant: SeededTenant,
  role: TenantRole,
  unit: SeededUnit | null = null,
  includeDescendants = true,
): Promise<Member> {
  const user = await seedUser(t);
  const membershipId = await seedGrant(t, user.userId, tenant, role, unit, { includeDescendants });
  const token = (await login(t, user.username, user.password)).accessToken;
  return { user, userId: user.userId, membershipId, token, api: as(t, token) };
}
