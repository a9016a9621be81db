import { createHash } from 'node:crypto';
import { DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

const names = new Map<string, string>();

/** A stable statement name per SQL text (pg keeps one prepared statement per name and connection). */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `uplink_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * One statement on the pool, outside any transaction, as a named prepared statement: PostgreSQL parses and plans it
 * once per connection, and no TypeORM query runner is created and released around it. For the few reads on the path
 * of every request (session check, device resolve); anything inside a unit of work goes through its manager.
 * Failures are TypeORM's QueryFailedError, as from `manager.query`.
 */
export async function preparedQuery<T>(dataSource: DataSource, text: string, values: unknown[], name = statementName(text)): Promise<T[]> {
  const pool = (dataSource.driver as PostgresDriver).master as {
    query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
  };
  try {
    return (await pool.query({ name, text, values })).rows;
  } catch (error) {
    throw new QueryFailedError(text, values, error as Error);
  }
}
