import { ConflictError } from '../../../shared/errors/domain-error';
import { lockoutConflict, temporaryPasswordConflict, UserRuleTarget } from './user-rules';

const CALLER = 'caller-id';
const admin = (overrides: Partial<UserRuleTarget> = {}): UserRuleTarget => ({
  userId: 'target-id',
  status: 'active',
  isProtected: false,
  isPlatformAdmin: true,
  ...overrides,
});
const reasonOf = (conflict: ConflictError | null) => conflict?.details?.reason ?? null;

describe('lockoutConflict (disable or demote)', () => {
  it('allows removing an admin while another active admin remains', () => {
    expect(lockoutConflict(admin(), CALLER, 1)).toBeNull();
  });

  it('refuses a protected user first, whoever asks', () => {
    expect(reasonOf(lockoutConflict(admin({ isProtected: true }), CALLER, 5))).toBe('protected_user');
    expect(reasonOf(lockoutConflict(admin({ isProtected: true, userId: CALLER }), CALLER, 0))).toBe('protected_user');
  });

  it('refuses the caller themself', () => {
    expect(reasonOf(lockoutConflict(admin({ userId: CALLER }), CALLER, 3))).toBe('self_lockout');
  });

  it('refuses the last active platform admin', () => {
    expect(reasonOf(lockoutConflict(admin(), CALLER, 0))).toBe('last_platform_admin');
  });

  it('does not count a user who is not an active admin as the last one', () => {
    expect(lockoutConflict(admin({ isPlatformAdmin: false }), CALLER, 0)).toBeNull();
    expect(lockoutConflict(admin({ status: 'disabled' }), CALLER, 0)).toBeNull();
  });
});

describe('temporaryPasswordConflict', () => {
  it('allows another, unprotected user', () => {
    expect(temporaryPasswordConflict(admin({ isPlatformAdmin: false }), CALLER)).toBeNull();
  });

  it('refuses a protected user', () => {
    expect(reasonOf(temporaryPasswordConflict(admin({ isProtected: true }), CALLER))).toBe('protected_user');
  });

  it('refuses the caller themself', () => {
    expect(reasonOf(temporaryPasswordConflict(admin({ userId: CALLER }), CALLER))).toBe('self_target');
  });
});
