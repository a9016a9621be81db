import { QueryFailedError } from 'typeorm';
import { ConflictError } from '../errors/domain-error';
import {
  isCheckViolation,
  isExclusionViolation,
  isForeignKeyViolation,
  isUniqueViolation,
  mapConstraintViolation,
  violatedConstraint,
} from './pg-errors';

function violation(code: string, constraint: string): QueryFailedError {
  const driverError = Object.assign(new Error('constraint violated'), { code, constraint });
  return new QueryFailedError('INSERT INTO things ...', [], driverError);
}

describe('pg error helpers', () => {
  it.each([
    ['23505', isUniqueViolation],
    ['23503', isForeignKeyViolation],
    ['23514', isCheckViolation],
    ['23P01', isExclusionViolation],
  ])('recognises SQLSTATE %s, wrapped by TypeORM or bare, by constraint name', (code, check) => {
    expect(check(violation(code, 'things_key'))).toBe(true);
    expect(check(violation(code, 'things_key'), 'things_key')).toBe(true);
    expect(check({ code, constraint: 'things_key' }, 'things_key')).toBe(true);
    expect(check(violation(code, 'things_key'), 'other_key')).toBe(false);
  });

  it('tells the kinds apart and leaves other errors alone', () => {
    expect(isUniqueViolation(violation('23503', 'things_key'))).toBe(false);
    expect(isExclusionViolation(violation('23505', 'things_key'))).toBe(false);
    expect(isUniqueViolation(new Error('boom'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(violatedConstraint({ code: '40001' })).toBeNull();
    expect(violatedConstraint(violation('23505', 'things_key'))).toBe('things_key');
  });
});

describe('mapConstraintViolation', () => {
  const duplicate = () => new ConflictError('duplicate_key', 'A thing with this key already exists.');
  const constraints = { things_key: duplicate };

  it('maps a violation of a named constraint to its domain error', () => {
    const mapped = mapConstraintViolation(violation('23505', 'things_key'), constraints);
    expect(mapped).toBeInstanceOf(ConflictError);
    expect((mapped as ConflictError).details).toEqual({ reason: 'duplicate_key' });
  });

  it('answers null for unnamed constraints, other errors, inherited names and no table', () => {
    expect(mapConstraintViolation(violation('23505', 'things_pkey'), constraints)).toBeNull();
    expect(mapConstraintViolation(new Error('boom'), constraints)).toBeNull();
    expect(mapConstraintViolation(violation('23505', 'toString'), constraints)).toBeNull();
    expect(mapConstraintViolation(violation('23505', 'things_key'), undefined)).toBeNull();
  });
});
