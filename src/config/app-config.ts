import { DEFAULT_MQTT_TOPICS, envSchema, MQTT_FORMATS, parseTrustProxy, splitList } from './env.schema';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export class ConfigValidationError extends Error {}

export type NodeEnv = 'development' | 'test' | 'production';

/** The MQTT ingestion source (platform scope): one broker connection with a persistent session. */
export interface MqttSettings {
  url: string;
  username: string | null;
  password: string | null;
  /** Stable across restarts, so the broker keeps this session's QoS 1 messages while the service is away. */
  clientId: string;
  topics: readonly string[];
  format: (typeof MQTT_FORMATS)[number];
}

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
  /** Express's `trust proxy`: which hops' X-Forwarded-For to believe when working out the client address. */
  readonly trustProxy!: boolean | number | string[];
  readonly metricsToken!: string | null;
  readonly docsEnabled!: boolean;
  /** Whether the web console is served at /console. */
  readonly consoleEnabled!: boolean;
  /** The origin browsers use to reach the service (PUBLIC_URL, without a trailing slash); null when unset. */
  readonly publicUrl!: string | null;
  readonly shutdownTimeoutMs!: number;
  /** How long an idle keep-alive connection stays open, ms (announced in the Keep-Alive header). */
  readonly httpKeepAliveTimeoutMs!: number;
  /** HS256 key of access tokens; outside production a random per-process key when unset. */
  readonly jwtSecret!: string;
  /** HMAC key of list cursors; outside production a random per-process key when unset. */
  readonly cursorSecret!: string;
  readonly accessTokenTtlSeconds!: number;
  readonly refreshIdleTtlSeconds!: number;
  readonly refreshRaceWindowSeconds!: number;
  readonly refreshCookieSecure!: boolean;
  readonly bcryptCost!: number;
  readonly bcryptMaxConcurrency!: number;
  readonly loginMaxFailures!: number;
  readonly loginLockoutMinutes!: number;
  readonly loginIpAttemptsPerMinute!: number;
  readonly rateLimitPerMinute!: number;
  /** Longest time a cached session or grant set is used (0: no cache). */
  readonly authCacheTtlMs!: number;
  /** Where the cache's LISTEN connection goes; null: the service's database connection. */
  readonly authCacheListenUrl!: string | null;
  readonly analyticsEnabled!: boolean;
  readonly analyticsSecret!: string | null;
  readonly platformAdmin!: {
    username: string;
    email: string;
    password: string;
    displayName: string;
    passwordChangeRequired: boolean;
  } | null;
  readonly sandboxTimeoutMs!: number;
  readonly sandboxMemoryMb!: number;
  readonly sandboxMaxIsolates!: number;
  /** False: this replica enqueues jobs but runs none (API only). */
  readonly jobsEnabled!: boolean;
  readonly jobsConcurrency!: number;
  readonly jobsPollIntervalMs!: number;
  readonly jobsLeaseMs!: number;
  readonly jobsMaxAttempts!: number;
  readonly jobsBackoffBaseMs!: number;
  /** Whole budget of one flow execution, ms; beyond it the execution fails with `timeout`. */
  readonly flowExecutionTimeoutMs!: number;
  /** False: this replica stores uplinks but processes none (ingest only). */
  readonly processingEnabled!: boolean;
  /** Concurrent claim-run-commit loops of one replica. */
  readonly processingWorkers!: number;
  /** Raw messages one worker claims and commits at once. */
  readonly processingBatchSize!: number;
  /** Fallback poll for pending messages stored by other replicas, ms. */
  readonly processingPollIntervalMs!: number;
  /** Raw messages received longer ago are deleted, unless a fixture pins them or they are still pending. */
  readonly rawRetentionDays!: number;
  /** Flow executions started longer ago are deleted (with their e-mail requests). */
  readonly executionRetentionDays!: number;
  /** Null: no SMTP server configured (deliveries wait and retry; readiness reports `mail` down). */
  readonly smtpUrl!: string | null;
  /** The `From` of every e-mail; its domain names the `Message-ID`s. */
  readonly mailFrom!: string;
  /** Reuse SMTP connections (nodemailer's pool) instead of one connection per message. */
  readonly smtpPool!: boolean;
  readonly smtpMaxConnections!: number;
  /** Connect, greeting and socket inactivity limit of one SMTP exchange, ms. */
  readonly smtpTimeoutMs!: number;
  /** E-mails one tenant's flows may queue per hour; past it new ones are suppressed (`tenant_rate_limit`). */
  readonly actionsMaxEmailsPerHour!: number;
  /** Test sends one user may make per minute. */
  readonly actionsTestSendsPerMinute!: number;
  /** Null: MQTT_ENABLED is false (no broker connection). */
  readonly mqtt!: MqttSettings | null;
  /** The one accepted https address pattern of the legacy system's API host; null: no legacy import source is accepted. */
  readonly legacyImportBaseUrlPattern!: RegExp | null;
  /** Tests only: the legacy import also accepts http://127.0.0.1:<port> and http://localhost:<port>. */
  readonly legacyImportAllowHttpLoopback!: boolean;
  readonly version!: string;
  readonly gitCommit!: string | null;
  readonly builtAt!: string | null;

  private constructor(values: AppConfig) {
    Object.assign(this, values);
  }

  /**
   * Throws ConfigValidationError naming every invalid or missing variable at once (one line per variable), so a
   * crash-looping deployment shows everything to fix in one start.
   */
  static fromEnv(env: NodeJS.ProcessEnv, overrides: Partial<AppConfig> = {}): AppConfig {
    // `KEY=` (as in .env files) means unset, so the default applies; it never means "the empty string".
    const present = Object.fromEntries(Object.entries(env).filter(([, raw]) => raw !== undefined && raw.trim() !== ''));
    const { error, value } = envSchema.validate(present, { abortEarly: false, convert: true });
    const problems: string[] = [];
    for (const detail of error?.details ?? []) {
      const variable = String(detail.path.join('.') || 'environment');
      // One line per problem, whatever the offending value contains.
      problems.push(`${variable}: ${detail.message.replace(/"/g, '').replace(/\s+/g, ' ')}`);
    }
    const admin = platformAdminFrom(present, value as Record<string, unknown>);
    if (Array.isArray(admin)) problems.push(...admin);
    const mqtt = mqttFrom(present, value as Record<string, unknown>);
    if (Array.isArray(mqtt)) problems.push(...mqtt);
    if (problems.length === 1) throw new ConfigValidationError(`Invalid configuration: ${problems[0]}`);
    if (problems.length > 1) {
      throw new ConfigValidationError(
        `Invalid configuration (${problems.length} problems):\n${problems.map((problem) => `  ${problem}`).join('\n')}`,
      );
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
      // PUBLIC_URL is the console's own origin, so refresh and logout from it are allowed without repeating it.
      allowedOrigins: withPublicUrl(splitList(value.ALLOWED_ORIGINS), value.PUBLIC_URL),
      trustProxy: parseTrustProxy(value.TRUST_PROXY) ?? false,
      metricsToken: value.METRICS_TOKEN ?? null,
      docsEnabled: value.DOCS_ENABLED,
      consoleEnabled: value.CONSOLE_ENABLED,
      publicUrl: value.PUBLIC_URL === undefined ? null : (value.PUBLIC_URL as string).replace(/\/$/, ''),
      shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
      httpKeepAliveTimeoutMs: value.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      jwtSecret: value.JWT_SECRET ?? randomBytes(32).toString('base64url'),
      cursorSecret: value.CURSOR_SECRET ?? randomBytes(32).toString('base64url'),
      accessTokenTtlSeconds: value.ACCESS_TOKEN_TTL_SECONDS,
      refreshIdleTtlSeconds: value.REFRESH_IDLE_TTL_SECONDS,
      refreshRaceWindowSeconds: value.REFRESH_RACE_WINDOW_SECONDS,
      refreshCookieSecure: value.REFRESH_COOKIE_SECURE,
      bcryptCost: value.BCRYPT_COST,
      bcryptMaxConcurrency: value.BCRYPT_MAX_CONCURRENCY,
      loginMaxFailures: value.LOGIN_MAX_FAILURES,
      loginLockoutMinutes: value.LOGIN_LOCKOUT_MINUTES,
      loginIpAttemptsPerMinute: value.LOGIN_IP_ATTEMPTS_PER_MINUTE,
      rateLimitPerMinute: value.RATE_LIMIT_PER_MINUTE,
      authCacheTtlMs: value.AUTH_CACHE_TTL_MS,
      authCacheListenUrl: value.AUTH_CACHE_LISTEN_URL ?? null,
      analyticsEnabled: value.ANALYTICS_ENABLED,
      analyticsSecret: value.ANALYTICS_SECRET ?? null,
      platformAdmin: admin as AppConfig['platformAdmin'],
      sandboxTimeoutMs: value.SANDBOX_TIMEOUT_MS,
      sandboxMemoryMb: value.SANDBOX_MEMORY_MB,
      sandboxMaxIsolates: value.SANDBOX_MAX_ISOLATES,
      jobsEnabled: value.JOBS_ENABLED,
      jobsConcurrency: value.JOBS_CONCURRENCY,
      jobsPollIntervalMs: value.JOBS_POLL_INTERVAL_MS,
      jobsLeaseMs: value.JOBS_LEASE_MS,
      jobsMaxAttempts: value.JOBS_MAX_ATTEMPTS,
      jobsBackoffBaseMs: value.JOBS_BACKOFF_BASE_MS,
      flowExecutionTimeoutMs: value.FLOW_EXECUTION_TIMEOUT_MS,
      processingEnabled: value.PROCESSING_ENABLED,
      processingWorkers: value.PROCESSING_WORKERS,
      processingBatchSize: value.PROCESSING_BATCH_SIZE,
      processingPollIntervalMs: value.PROCESSING_POLL_INTERVAL_MS,
      rawRetentionDays: value.RAW_RETENTION_DAYS,
      executionRetentionDays: value.EXECUTION_RETENTION_DAYS,
      smtpUrl: value.SMTP_URL ?? null,
      mailFrom: value.MAIL_FROM,
      smtpPool: value.SMTP_POOL,
      smtpMaxConnections: value.SMTP_MAX_CONNECTIONS,
      smtpTimeoutMs: value.SMTP_TIMEOUT_MS,
      actionsMaxEmailsPerHour: value.ACTIONS_MAX_EMAILS_PER_HOUR,
      actionsTestSendsPerMinute: value.ACTIONS_TEST_SENDS_PER_MINUTE,
      mqtt: mqtt as MqttSettings | null,
      legacyImportBaseUrlPattern: value.LEGACY_IMPORT_BASE_URL_PATTERN ? new RegExp(value.LEGACY_IMPORT_BASE_URL_PATTERN) : null,
      legacyImportAllowHttpLoopback: value.LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK,
      version: readPackageVersion(),
      gitCommit: value.GIT_COMMIT ?? null,
      builtAt: value.BUILT_AT ?? null,
      ...overrides,
    } as AppConfig);
  }

  /**
   * Whether a browser origin may call with credentials: an exact entry of ALLOWED_ORIGINS, or, in development
   * only, any `http://localhost:<port>` or `http://127.0.0.1:<port>` (a console under local development).
   */
  isOriginAllowed(origin: string | undefined): boolean {
    if (origin === undefined) return false;
    if (this.allowedOrigins.includes(origin)) return true;
    return this.nodeEnv === 'development' && DEVELOPMENT_ORIGIN.test(origin);
  }
}

/** ALLOWED_ORIGINS plus the PUBLIC_URL origin (once). */
function withPublicUrl(origins: string[], publicUrl: string | undefined): string[] {
  if (publicUrl === undefined) return origins;
  const origin = publicUrl.replace(/\/$/, '');
  return origins.includes(origin) ? origins : [...origins, origin];
}

const DEVELOPMENT_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1)(:[0-9]{1,5})?$/;

/**
 * All three of username, e-mail and password, or none: a partial bootstrap is a configuration error (returned as
 * the problems' text, so it is reported together with every other one).
 */
function platformAdminFrom(present: Record<string, unknown>, value: Record<string, unknown>): AppConfig['platformAdmin'] | string[] {
  const parts = ['PLATFORM_ADMIN_USERNAME', 'PLATFORM_ADMIN_EMAIL', 'PLATFORM_ADMIN_PASSWORD'] as const;
  const given = parts.filter((name) => present[name] !== undefined);
  if (given.length === 0) return null;
  if (given.length < parts.length) {
    const missing = parts.filter((name) => present[name] === undefined);
    return missing.map((name) => `${name}: is required when ${given[0]} is set`);
  }
  return {
    username: value.PLATFORM_ADMIN_USERNAME as string,
    email: value.PLATFORM_ADMIN_EMAIL as string,
    password: value.PLATFORM_ADMIN_PASSWORD as string,
    displayName: value.PLATFORM_ADMIN_DISPLAY_NAME as string,
    passwordChangeRequired: value.PLATFORM_ADMIN_PASSWORD_CHANGE_REQUIRED as boolean,
  };
}

/**
 * The MQTT source when MQTT_ENABLED, else null; problems as text lines like every other setting's. MQTT_URL is
 * required when enabled, and a password needs a user name (an MQTT CONNECT cannot carry one without the other).
 */
function mqttFrom(present: Record<string, unknown>, value: Record<string, unknown>): MqttSettings | null | string[] {
  const problems: string[] = [];
  if (present.MQTT_PASSWORD !== undefined && present.MQTT_USERNAME === undefined) {
    problems.push('MQTT_USERNAME: is required when MQTT_PASSWORD is set');
  }
  if (value.MQTT_ENABLED !== true) return problems.length > 0 ? problems : null;
  if (present.MQTT_URL === undefined) problems.push('MQTT_URL: is required when MQTT_ENABLED is true');
  if (problems.length > 0) return problems;
  const format = value.MQTT_FORMAT as MqttSettings['format'];
  return {
    url: value.MQTT_URL as string,
    username: (value.MQTT_USERNAME as string | undefined) ?? null,
    password: (value.MQTT_PASSWORD as string | undefined) ?? null,
    clientId: value.MQTT_CLIENT_ID as string,
    topics: splitList((value.MQTT_TOPICS as string | undefined) ?? DEFAULT_MQTT_TOPICS[format]),
    format,
  };
}

function readPackageVersion(): string {
  // src/config and dist/config are both two levels below the package root.
  const raw = readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}
