import { DataSource, DataSourceOptions, MigrationExecutor } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface PoolSettings {
  poolMax: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

const DEFAULT_POOL: PoolSettings = { poolMax: 10, connectTimeoutMs: 2000, statementTimeoutMs: 30000 };

/**
 * The one definition of how Uplink talks to PostgreSQL, shared by the application, the tests and the
 * TypeORM CLI (`ormconfig.ts`). Entities and migrations are found by file name (`*.entity.ts`, migrations'
 * `<timestamp>-<name>.ts`) and loaded with `require`, so the same lists work from `src` under jest and from `dist`.
 */
export function dataSourceOptions(url: string, pool: Partial<PoolSettings> = {}): DataSourceOptions {
  const settings = { ...DEFAULT_POOL, ...pool };
  return {
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    extra: {
      max: settings.poolMax,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      statement_timeout: settings.statementTimeoutMs || undefined,
      application_name: 'uplink',
    },
  };
}

export function createDataSource(url: string, pool: Partial<PoolSettings> = {}): DataSource {
  return new DataSource(dataSourceOptions(url, pool));
}

/** Arbitrary constant; every replica takes the same key, so only one migrates at a time. */
const MIGRATION_LOCK_KEY = 4_711_2026;

/**
 * Runs pending migrations while holding a session-level advisory lock; returns the names it applied. The lock
 * and the migrations share one connection, so this works with a pool of one.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const executor = new MigrationExecutor(dataSource, lockRunner);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    return applied.map((migration) => migration.name);
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockRunner.release();
  }
}
