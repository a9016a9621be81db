import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { withDatabase } from './global-setup';
import { requireTestEnv, TEST_ADMIN_URL, TEST_TEMPLATE_DB } from './test-env';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** Runs `work` on a connection of the run's admin (its `postgres` database), closed afterwards. */
export async function withAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: requireTestEnv(TEST_ADMIN_URL) });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A database for one test file: by default a clone of the run's migrated template; `migrated: false` gives an
 * empty one, for tests of the migration runner itself.
 */
export async function createTestDatabase({ migrated = true }: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const template = requireTestEnv(TEST_TEMPLATE_DB);
  const name = `${clonePrefix(template)}_${randomBytes(4).toString('hex')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"${migrated ? ` TEMPLATE "${template}"` : ''}`));
  return {
    name,
    url: withDatabase(requireTestEnv(TEST_ADMIN_URL), name),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** What the names of the per-file clones of `template` start with. */
export function clonePrefix(template: string): string {
  return template.replace('tpl', 't');
}
