import { createDataSource, runMigrationsLocked } from '../src/database/data-source';
import { MIGRATIONS } from '../src/database/migrations';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { startTestApp } from './support/test-app';

describe('migrations at start', () => {
  let database: TestDatabase;

  beforeEach(async () => {
    database = await createTestDatabase({ migrated: false });
  });
  afterEach(() => database.drop());

  it('lets two replicas migrate an empty database at the same time: each migration is applied once', async () => {
    const replicas = [createDataSource(database.url, { poolMax: 1 }), createDataSource(database.url, { poolMax: 1 })];
    await Promise.all(replicas.map((replica) => replica.initialize()));
    try {
      const applied = await Promise.all(replicas.map((replica) => runMigrationsLocked(replica)));
      // One replica did the work, the other waited on the lock and found nothing left to do.
      expect(applied.map((names) => names.length).sort()).toEqual([0, MIGRATIONS.length]);
      const rows = await replicas[0].query<{ name: string }[]>('SELECT name FROM schema_migrations ORDER BY id');
      expect(rows.map((row) => row.name)).toEqual(MIGRATIONS.map((migration) => migration.name));
      const lockHolders = await replicas[0].query<unknown[]>(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory'`);
      expect(lockHolders).toHaveLength(0);
    } finally {
      await Promise.all(replicas.map((replica) => replica.destroy()));
    }
  });

  it('never synchronizes the schema from entities', () => {
    const dataSource = createDataSource(database.url);
    expect(dataSource.options.synchronize).toBe(false);
    expect(dataSource.options.migrationsRun).toBeFalsy();
  });
});

describe('DB_MIGRATIONS_RUN=false', () => {
  it('starts without migrating, and readiness says the schema is behind', async () => {
    const t = await startTestApp({ migrated: false, env: { DB_MIGRATIONS_RUN: 'false' } });
    try {
      const applied = await t.dataSource.query<unknown[]>(
        `SELECT 1 FROM information_schema.tables WHERE table_name = 'audit_log'`,
      );
      expect(applied).toHaveLength(0);
      const res = await t.http().get('/readyz').expect(503);
      expect(res.body.status).toBe('not_ready');
      expect(res.body.checks.database.status).toBe('up');
      expect(res.body.checks.migrations).toMatchObject({ status: 'down', pending: MIGRATIONS.length });
      await t.http().get('/healthz').expect(200);
    } finally {
      await t.close();
    }
  });
});
