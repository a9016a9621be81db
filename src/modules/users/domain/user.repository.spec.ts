import { QueryFailedError } from 'typeorm';
import { ConflictError } from '../../../shared/errors/domain-error';
import { duplicateConflictOf, withDuplicatesAsConflicts } from './user.repository';

function uniqueViolation(constraint: string): QueryFailedError {
  const driverError = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505', constraint });
  return new QueryFailedError('INSERT INTO users ...', [], driverError);
}

describe('duplicateConflictOf', () => {
  it.each([
    ['users_username_ci_key', 'duplicate_username'],
    ['users_email_ci_key', 'duplicate_email'],
  ])('maps a unique violation of %s to 409 %s', (constraint, reason) => {
    const conflict = duplicateConflictOf(uniqueViolation(constraint));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict?.details).toEqual({ reason });
  });

  it('reads the raw driver error too', () => {
    expect(duplicateConflictOf({ code: '23505', constraint: 'users_email_ci_key' })?.details).toEqual({ reason: 'duplicate_email' });
  });

  it('leaves other errors alone', () => {
    expect(duplicateConflictOf(uniqueViolation('sessions_pkey'))).toBeNull();
    expect(duplicateConflictOf({ code: '23503', constraint: 'users_email_ci_key' })).toBeNull();
    expect(duplicateConflictOf(new Error('boom'))).toBeNull();
    expect(duplicateConflictOf(undefined)).toBeNull();
  });
});

describe('withDuplicatesAsConflicts', () => {
  it('passes results and unrelated errors through', async () => {
    await expect(withDuplicatesAsConflicts(async () => 42)).resolves.toBe(42);
    const boom = new Error('boom');
    await expect(withDuplicatesAsConflicts(async () => Promise.reject(boom))).rejects.toBe(boom);
  });

  it('turns a lost race on the username index into 409 duplicate_username', async () => {
    await expect(withDuplicatesAsConflicts(async () => Promise.reject(uniqueViolation('users_username_ci_key')))).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { reason: 'duplicate_username' },
    });
  });
});
