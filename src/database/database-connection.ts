import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { createDataSource, runMigrationsLocked } from './data-source';
import { EmbeddedPostgresServer } from './embedded-postgres';

export const EMBEDDED_DATABASE_NAME = 'uplink';

/**
 * Owns the PostgreSQL side of the process: picks the server (DATABASE_URL or an embedded cluster), opens the
 * pool, migrates under an advisory lock, and closes everything after the HTTP server has drained.
 */
export class DatabaseConnection implements OnApplicationShutdown {
  private static readonly logger = new Logger('Database');

  private constructor(
    readonly dataSource: DataSource,
    private readonly embedded: EmbeddedPostgresServer | null,
  ) {}

  static async open(config: AppConfig): Promise<DatabaseConnection> {
    const logger = DatabaseConnection.logger;
    let embedded: EmbeddedPostgresServer | null = null;
    let url = config.databaseUrl;
    if (!url) {
      embedded = await EmbeddedPostgresServer.start({
        dataDir: config.embeddedPgDir,
        port: config.embeddedPgPort,
        database: EMBEDDED_DATABASE_NAME,
        log: (line) => logger.debug(line),
      });
      url = embedded.url(EMBEDDED_DATABASE_NAME);
      logger.log(
        `Using embedded PostgreSQL on 127.0.0.1:${embedded.port}, data in ${embedded.dataDir} ` +
          `(${embedded.initialised ? 'initialised now' : 'reused'})`,
      );
    } else {
      logger.log(`Using external PostgreSQL at ${describeUrl(url)}`);
    }

    const dataSource = createDataSource(url, {
      poolMax: config.dbPoolMax,
      connectTimeoutMs: config.dbConnectTimeoutMs,
      statementTimeoutMs: config.dbStatementTimeoutMs,
    });
    try {
      await dataSource.initialize();
      if (config.migrationsRun) {
        const applied = await runMigrationsLocked(dataSource);
        logger.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Schema is up to date');
      } else {
        logger.log('DB_MIGRATIONS_RUN=false: migrations not run at start');
      }
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy();
      await embedded?.stop();
      throw error;
    }
    return new DatabaseConnection(dataSource, embedded);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    if (this.embedded) {
      await this.embedded.stop();
      DatabaseConnection.logger.log('Embedded PostgreSQL stopped');
    }
  }
}

/** host:port/database only; credentials never reach the log. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}
