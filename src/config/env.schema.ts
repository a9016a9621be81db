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
