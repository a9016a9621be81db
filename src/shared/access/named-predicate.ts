import type { SqlPredicate } from './access.service';

/**
 * The access layer's positional predicate (`$1`, `$2`, numbered after `offset`) with TypeORM named parameters
 * (`:prefix1`) instead, so it can go into a SelectQueryBuilder next to the list's own filters.
 */
export function namedPredicate(predicate: SqlPredicate, prefix: string, offset = 0): { sql: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const sql = predicate.sql.replace(/\$(\d+)/g, (_match, digits: string) => {
    const index = Number(digits) - offset - 1;
    if (index < 0 || index >= predicate.params.length) throw new Error(`Predicate parameter $${digits} is outside its ${predicate.params.length} parameters`);
    params[`${prefix}${digits}`] = predicate.params[index];
    return `:${prefix}${digits}`;
  });
  return { sql, params };
}
