import { availableParallelism } from 'node:os';
import Joi from 'joi';

const bool = Joi.boolean().truthy('1', 'yes', 'on').falsy('0', 'no', 'off');

/**
 * Every environment variable the service reads. `.env.example` and the README table list the same set;
 * `test/unit/config` keeps them in step.
 */
export const envSchema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  HOST: Joi.string().hostname().default('0.0.0.0'),
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .optional(),
  EMBEDDED_PG_DIR: Joi.string().default('./.data/postgres'),
  EMBEDDED_PG_PORT: Joi.number().integer().min(1).max(65535).default(54329),
  DB_MIGRATIONS_RUN: bool.default(true),
  DB_POOL_MAX: Joi.number().integer().min(1).max(200).default(10),
  DB_CONNECT_TIMEOUT_MS: Joi.number().integer().min(100).max(60000).default(2000),
  DB_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(0).max(600000).default(30000),
  ALLOWED_ORIGINS: Joi.string()
    .allow('')
    .default('')
    .custom((value: string, helpers) => {
      for (const origin of splitList(value)) {
        if (!/^https?:\/\/[^/\s]+$/.test(origin)) return helpers.error('string.origin', { origin });
      }
      return value;
    })
    .messages({ 'string.origin': '{{#label}} entries must be origins like https://console.example.com ({{#origin}})' }),
  METRICS_TOKEN: Joi.string().min(16).optional().when('NODE_ENV', {
    is: 'production',
    then: Joi.required(),
  }),
  DOCS_ENABLED: bool.default(true),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).max(120000).default(10000),
  JWT_SECRET: Joi.string().min(32).optional().when('NODE_ENV', { is: 'production', then: Joi.required() }),
  CURSOR_SECRET: Joi.string().min(32).optional().when('NODE_ENV', { is: 'production', then: Joi.required() }),
  ACCESS_TOKEN_TTL_SECONDS: Joi.number().integer().min(60).max(3600).default(1800),
  REFRESH_IDLE_TTL_SECONDS: Joi.number().integer().min(1).max(604800).default(604800),
  REFRESH_RACE_WINDOW_SECONDS: Joi.number().integer().min(0).max(60).default(10),
  REFRESH_COOKIE_SECURE: bool.default(true),
  BCRYPT_COST: Joi.number().integer().min(4).max(15).default(12),
  BCRYPT_MAX_CONCURRENCY: Joi.number().integer().min(1).max(64).default(Math.max(1, availableParallelism() - 1)),
  LOGIN_MAX_FAILURES: Joi.number().integer().min(1).max(1000).default(5),
  LOGIN_LOCKOUT_MINUTES: Joi.number().integer().min(1).max(1440).default(15),
  LOGIN_IP_ATTEMPTS_PER_MINUTE: Joi.number().integer().min(1).max(100000).default(20),
  RATE_LIMIT_PER_MINUTE: Joi.number().integer().min(1).max(1000000).default(600),
  ANALYTICS_ENABLED: bool.default(false),
  ANALYTICS_SECRET: Joi.string().min(32).optional().when('ANALYTICS_ENABLED', { is: true, then: Joi.required() }),
  PLATFORM_ADMIN_USERNAME: Joi.string().pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/).optional(),
  PLATFORM_ADMIN_EMAIL: Joi.string().email({ tlds: false }).max(254).optional(),
  PLATFORM_ADMIN_PASSWORD: Joi.string().optional(),
  PLATFORM_ADMIN_DISPLAY_NAME: Joi.string().min(1).max(200).default('Platform Administrator'),
  PLATFORM_ADMIN_PASSWORD_CHANGE_REQUIRED: bool.default(true),
  SANDBOX_TIMEOUT_MS: Joi.number().integer().min(1).max(10000).default(50),
  SANDBOX_MEMORY_MB: Joi.number().integer().min(8).max(4096).default(64),
  SANDBOX_MAX_ISOLATES: Joi.number().integer().min(1).max(10000).default(100),
  JOBS_ENABLED: bool.default(true),
  JOBS_CONCURRENCY: Joi.number().integer().min(1).max(100).default(4),
  JOBS_POLL_INTERVAL_MS: Joi.number().integer().min(10).max(600000).default(2000),
  JOBS_LEASE_MS: Joi.number().integer().min(100).max(3600000).default(60000),
  JOBS_MAX_ATTEMPTS: Joi.number().integer().min(1).max(100).default(5),
  JOBS_BACKOFF_BASE_MS: Joi.number().integer().min(1).max(3600000).default(1000),
  GIT_COMMIT: Joi.string().max(64).optional(),
  BUILT_AT: Joi.string().isoDate().optional(),
})
  // The process shares its environment with the OS and tooling; only our own variables are validated.
  .unknown(true);

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}
