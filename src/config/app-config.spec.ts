import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig, ConfigValidationError } from './app-config';

const PRODUCTION_TOKEN = 'a-metrics-token-of-32-characters';

/** The error fromEnv throws for `env`, failing the test if it does not throw one. */
function configErrorFor(env: NodeJS.ProcessEnv): ConfigValidationError {
  try {
    AppConfig.fromEnv(env);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be rejected`);
}

describe('AppConfig.fromEnv', () => {
  describe('defaults', () => {
    const config = AppConfig.fromEnv({});

    it('serves on 0.0.0.0:3000 in development', () => {
      expect(config.nodeEnv).toBe('development');
      expect(config.host).toBe('0.0.0.0');
      expect(config.port).toBe(3000);
      expect(config.logLevel).toBe('info');
    });

    it('starts the embedded PostgreSQL under ./.data/postgres and runs migrations', () => {
      expect(config.databaseUrl).toBeNull();
      expect(config.embeddedPgDir).toBe('./.data/postgres');
      expect(config.embeddedPgPort).toBe(54329);
      expect(config.migrationsRun).toBe(true);
    });

    it('uses the documented pool, timeout and shutdown settings', () => {
      expect(config.dbPoolMax).toBe(10);
      expect(config.dbConnectTimeoutMs).toBe(2000);
      expect(config.dbStatementTimeoutMs).toBe(30000);
      expect(config.shutdownTimeoutMs).toBe(10000);
    });

    it('allows no cross-origin callers, needs no metrics token and serves the docs', () => {
      expect(config.allowedOrigins).toEqual([]);
      expect(config.metricsToken).toBeNull();
      expect(config.docsEnabled).toBe(true);
    });

    it('runs background jobs with the documented worker settings', () => {
      expect(config.jobsEnabled).toBe(true);
      expect(config.jobsConcurrency).toBe(4);
      expect(config.jobsPollIntervalMs).toBe(2000);
      expect(config.jobsLeaseMs).toBe(60000);
      expect(config.jobsMaxAttempts).toBe(5);
      expect(config.jobsBackoffBaseMs).toBe(1000);
    });

    it('reports the package version and no build information', () => {
      const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
      expect(config.version).toBe(pkg.version);
      expect(config.gitCommit).toBeNull();
      expect(config.builtAt).toBeNull();
    });
  });

  describe('reading values', () => {
    it('converts numbers from their string form', () => {
      const config = AppConfig.fromEnv({ PORT: '8080', DB_POOL_MAX: '25', SHUTDOWN_TIMEOUT_MS: '0' });
      expect(config.port).toBe(8080);
      expect(config.dbPoolMax).toBe(25);
      expect(config.shutdownTimeoutMs).toBe(0);
    });

    it.each(['false', 'FALSE', '0', 'no', 'off'])('reads DB_MIGRATIONS_RUN=%s as false', (value) => {
      expect(AppConfig.fromEnv({ DB_MIGRATIONS_RUN: value }).migrationsRun).toBe(false);
    });

    it.each(['true', '1', 'yes', 'on'])('reads DB_MIGRATIONS_RUN=%s as true', (value) => {
      expect(AppConfig.fromEnv({ DB_MIGRATIONS_RUN: value }).migrationsRun).toBe(true);
    });

    it('reads DOCS_ENABLED the same way', () => {
      expect(AppConfig.fromEnv({ DOCS_ENABLED: 'false' }).docsEnabled).toBe(false);
    });

    it('splits ALLOWED_ORIGINS on commas, trimming and dropping empty entries', () => {
      const config = AppConfig.fromEnv({ ALLOWED_ORIGINS: ' https://console.example.com , http://localhost:4200,, ' });
      expect(config.allowedOrigins).toEqual(['https://console.example.com', 'http://localhost:4200']);
    });

    it('keeps DATABASE_URL, which replaces the embedded PostgreSQL', () => {
      const url = 'postgresql://uplink:secret@db.internal:5432/uplink';
      expect(AppConfig.fromEnv({ DATABASE_URL: url }).databaseUrl).toBe(url);
    });

    it('ignores variables it does not own', () => {
      expect(() => AppConfig.fromEnv({ PATH: '/usr/bin', HOME: '/root', npm_config_cache: '' })).not.toThrow();
    });

    it('lets the caller override individual values', () => {
      expect(AppConfig.fromEnv({ PORT: '8080' }, { port: 0 }).port).toBe(0);
    });
  });

  describe('production', () => {
    it('requires METRICS_TOKEN', () => {
      expect(configErrorFor({ NODE_ENV: 'production' }).message).toMatch(/^Invalid configuration: METRICS_TOKEN: /);
    });

    it('requires JWT_SECRET', () => {
      expect(configErrorFor({ NODE_ENV: 'production', METRICS_TOKEN: PRODUCTION_TOKEN }).message).toMatch(
        /^Invalid configuration: JWT_SECRET: /,
      );
    });

    it('requires CURSOR_SECRET', () => {
      expect(
        configErrorFor({ NODE_ENV: 'production', METRICS_TOKEN: PRODUCTION_TOKEN, JWT_SECRET: 'j'.repeat(32) }).message,
      ).toMatch(/^Invalid configuration: CURSOR_SECRET: /);
    });

    it('starts with a METRICS_TOKEN of at least 16 characters, a JWT_SECRET and a CURSOR_SECRET', () => {
      const config = AppConfig.fromEnv({
        NODE_ENV: 'production',
        METRICS_TOKEN: PRODUCTION_TOKEN,
        JWT_SECRET: 'j'.repeat(32),
        CURSOR_SECRET: 'c'.repeat(32),
      });
      expect(config.nodeEnv).toBe('production');
      expect(config.metricsToken).toBe(PRODUCTION_TOKEN);
    });
  });

  describe('invalid values', () => {
    it.each<[string, NodeJS.ProcessEnv]>([
      ['PORT', { PORT: 'http' }],
      ['PORT', { PORT: '70000' }],
      ['PORT', { PORT: '80.5' }],
      ['NODE_ENV', { NODE_ENV: 'staging' }],
      ['HOST', { HOST: 'not a host!' }],
      ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
      ['DATABASE_URL', { DATABASE_URL: 'mysql://db.internal/uplink' }],
      ['DB_MIGRATIONS_RUN', { DB_MIGRATIONS_RUN: 'maybe' }],
      ['DB_POOL_MAX', { DB_POOL_MAX: '0' }],
      ['DB_CONNECT_TIMEOUT_MS', { DB_CONNECT_TIMEOUT_MS: '10' }],
      ['ALLOWED_ORIGINS', { ALLOWED_ORIGINS: 'https://console.example.com/app' }],
      ['ALLOWED_ORIGINS', { ALLOWED_ORIGINS: 'console.example.com' }],
      ['METRICS_TOKEN', { METRICS_TOKEN: 'short' }],
      ['CURSOR_SECRET', { CURSOR_SECRET: 'shorter-than-32-characters' }],
      ['BUILT_AT', { BUILT_AT: 'yesterday' }],
      ['JOBS_ENABLED', { JOBS_ENABLED: 'sometimes' }],
      ['JOBS_CONCURRENCY', { JOBS_CONCURRENCY: '0' }],
      ['JOBS_POLL_INTERVAL_MS', { JOBS_POLL_INTERVAL_MS: '5' }],
      ['JOBS_LEASE_MS', { JOBS_LEASE_MS: '50' }],
      ['JOBS_MAX_ATTEMPTS', { JOBS_MAX_ATTEMPTS: '101' }],
      ['JOBS_BACKOFF_BASE_MS', { JOBS_BACKOFF_BASE_MS: '0' }],
    ])('rejects a bad %s in one line naming the variable', (variable, env) => {
      const error = configErrorFor(env);
      expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable}: [^\\n]+$`));
      expect(error.message).not.toContain('"');
    });

    it('reports only the first problem', () => {
      const { message } = configErrorFor({ PORT: 'http', NODE_ENV: 'staging', LOG_LEVEL: 'verbose' });
      expect(message.match(/Invalid configuration/g)).toHaveLength(1);
    });
  });
});
