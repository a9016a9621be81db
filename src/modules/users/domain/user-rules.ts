import { ConflictError } from '../../../shared/errors/domain-error';

export interface UserRuleTarget {
  userId: string;
  status: 'active' | 'disabled';
  isProtected: boolean;
  isPlatformAdmin: boolean;
}

/**
 * Whether `callerId` may disable or demote `target`. `otherActiveAdmins` counts the active
 * platform admins other than the target, read under a lock on those rows so two concurrent requests cannot
 * both remove "the other" admin.
 */
export function lockoutConflict(target: UserRuleTarget, callerId: string, otherActiveAdmins: number): ConflictError | null {
  if (target.isProtected) return new ConflictError('protected_user', 'This user is protected and cannot be disabled or demoted.');
  if (target.userId === callerId) {
    return new ConflictError('self_lockout', 'You cannot disable or demote yourself; ask another platform admin.');
  }
  if (target.isPlatformAdmin && target.status === 'active' && otherActiveAdmins === 0) {
    return new ConflictError('last_platform_admin', 'This is the last active platform admin; grant the role to someone else first.');
  }
  return null;
}

/** A temporary password is never set on a protected user, nor by the caller on themself. */
export function temporaryPasswordConflict(target: UserRuleTarget, callerId: string): ConflictError | null {
  if (target.isProtected) return new ConflictError('protected_user', 'This user is protected and cannot be given a temporary password.');
  if (target.userId === callerId) {
    return new ConflictError('self_target', 'You cannot give yourself a temporary password; use change-password.');
  }
  return null;
}
