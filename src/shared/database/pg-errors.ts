/**
 * PostgreSQL error recognition. The driver's error may arrive bare (pg) or wrapped by TypeORM
 * (`QueryFailedError.driverError`), so each check looks a few levels down.
 */

/** SQLSTATE codes of the integrity-constraint class that the API maps to answers. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_CHECK_VIOLATION = '23514';
export const PG_EXCLUSION_VIOLATION = '23P01';

export interface PgConstraintViolation {
  /** SQLSTATE, e.g. `23505`. */
  code: string;
  /** The violated constraint or index name, when PostgreSQL reports one. */
  constraint: string | null;
}

/** The integrity-constraint violation (SQLSTATE class 23) carried by `error`, or null. */
export function constraintViolationOf(error: unknown): PgConstraintViolation | null {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; driverError?: unknown };
    if (typeof candidate.code === 'string' && candidate.code.startsWith('23')) {
      return { code: candidate.code, constraint: typeof candidate.constraint === 'string' ? candidate.constraint : null };
    }
    current = candidate.driverError;
  }
  return null;
}

/** The name of the violated constraint, or null when `error` is no constraint violation. */
export function violatedConstraint(error: unknown): string | null {
  return constraintViolationOf(error)?.constraint ?? null;
}

function violates(code: string, error: unknown, constraint?: string): boolean {
  const violation = constraintViolationOf(error);
  return violation?.code === code && (constraint === undefined || violation.constraint === constraint);
}

/** A unique violation, of `constraint` when given. */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean => violates(PG_UNIQUE_VIOLATION, error, constraint);
/** A foreign-key violation, of `constraint` when given. */
export const isForeignKeyViolation = (error: unknown, constraint?: string): boolean => violates(PG_FOREIGN_KEY_VIOLATION, error, constraint);
/** A check violation, of `constraint` when given. */
export const isCheckViolation = (error: unknown, constraint?: string): boolean => violates(PG_CHECK_VIOLATION, error, constraint);
/** An exclusion-constraint violation, of `constraint` when given. */
export const isExclusionViolation = (error: unknown, constraint?: string): boolean => violates(PG_EXCLUSION_VIOLATION, error, constraint);

/** Constraint name -> the domain error its violation means (a race the handler's own checks cannot see). */
export type ConstraintErrors = Readonly<Record<string, () => Error>>;

/** The domain error `constraints` names for the violation carried by `error`, or null. */
export function mapConstraintViolation(error: unknown, constraints: ConstraintErrors | undefined): Error | null {
  if (!constraints) return null;
  const name = violatedConstraint(error);
  if (name === null || !Object.hasOwn(constraints, name)) return null;
  return constraints[name]();
}
