import { envSchema, splitList } from './env.schema';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export class ConfigValidationError extends Error {}

export type NodeEnv = 'development' | 'test' | 'production';

/** The one typed view of the environment, validated once at startup and injected where needed. */
export class AppConfig {
  readonly nodeEnv!: NodeEnv;
  readonly host!: string;
  readonly port!: number;
  readonly logLevel!: string;
  /** Null means: start the embedded PostgreSQL. */
  readonly databaseUrl!: string | null;
  readonly embeddedPgDir!: string;
  readonly embeddedPgPort!: number;
  readonly migrationsRun!: boolean;
  readonly dbPoolMax!: number;
  readonly dbConnectTimeoutMs!: number;
  readonly dbStatementTimeoutMs!: number;
  readonly allowedOrigins!: readonly string[];
  readonly metricsToken!: string | null;
  readonly docsEnabled!: boolean;
  readonly shutdownTimeoutMs!: number;
  readonly version!: string;
  readonly gitCommit!: string | null;
  readonly builtAt!: string | null;

  private constructor(values: AppConfig) {
    Object.assign(this, values);
  }

  /** Throws ConfigValidationError with one line naming the variable and its rule. */
  static fromEnv(env: NodeJS.ProcessEnv, overrides: Partial<AppConfig> = {}): AppConfig {
    // `KEY=` (as in .env files) means unset, so the default applies; it never means "the empty string".
    const present = Object.fromEntries(Object.entries(env).filter(([, raw]) => raw !== undefined && raw.trim() !== ''));
    const { error, value } = envSchema.validate(present, { abortEarly: true, convert: true });
    if (error) {
      const detail = error.details[0];
      const variable = String(detail?.path.join('.') ?? 'environment');
      // One line, whatever the offending value contains.
      const rule = (detail?.message ?? error.message).replace(/"/g, '').replace(/\s+/g, ' ');
      throw new ConfigValidationError(`Invalid configuration: ${variable}: ${rule}`);
    }
    return new AppConfig({
      nodeEnv: value.NODE_ENV,
      host: value.HOST,
      port: value.PORT,
      logLevel: value.LOG_LEVEL,
      databaseUrl: value.DATABASE_URL ?? null,
      embeddedPgDir: value.EMBEDDED_PG_DIR,
      embeddedPgPort: value.EMBEDDED_PG_PORT,
      migrationsRun: value.DB_MIGRATIONS_RUN,
      dbPoolMax: value.DB_POOL_MAX,
      dbConnectTimeoutMs: value.DB_CONNECT_TIMEOUT_MS,
      dbStatementTimeoutMs: value.DB_STATEMENT_TIMEOUT_MS,
      allowedOrigins: splitList(value.ALLOWED_ORIGINS),
      metricsToken: value.METRICS_TOKEN ?? null,
      docsEnabled: value.DOCS_ENABLED,
      shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
      version: readPackageVersion(),
      gitCommit: value.GIT_COMMIT ?? null,
      builtAt: value.BUILT_AT ?? null,
      ...overrides,
    } as AppConfig);
  }
}

function readPackageVersion(): string {
  // src/config and dist/config are both two levels below the package root.
  const raw = readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}
