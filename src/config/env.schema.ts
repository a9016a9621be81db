import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import Joi from 'joi';
import { EMAIL_PATTERN } from '../shared/validation/email';

const PLACEHOLDER_MESSAGE = '{{#label}} is a placeholder value; production needs a random one (e.g. openssl rand -base64 48)';
const PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?me|placeholder|^(secret|password|token)[-_0-9]*$/i;

export const MQTT_FORMATS = ['chirpstack', 'tts'] as const;
export const DEFAULT_MQTT_CLIENT_ID = 'uplink-ingestion';
/** What each format's network server publishes uplinks on, when MQTT_TOPICS is not set. */
export const DEFAULT_MQTT_TOPICS: Record<(typeof MQTT_FORMATS)[number], string> = {
  chirpstack: 'application/+/device/+/event/up',
  tts: 'v3/+/devices/+/up',
};

const bool = Joi.boolean().truthy('1', 'yes', 'on').falsy('0', 'no', 'off');

/**
 * Every environment variable the service reads. `.env.example` and the table in docs/configuration.md list the same set;
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
  TRUST_PROXY: Joi.string()
    .default('false')
    .custom((value: string, helpers) => (parseTrustProxy(value) === undefined ? helpers.error('string.trustProxy') : value))
    .messages({
      'string.trustProxy':
        '{{#label}} must be false, true, a hop count (e.g. 1), or a comma-separated list of loopback, linklocal, uniquelocal, IP addresses and CIDR ranges',
    }),
  METRICS_TOKEN: secret(16).when('NODE_ENV', { is: 'production', then: Joi.required() }),
  DOCS_ENABLED: bool.default(true),
  CONSOLE_ENABLED: bool.default(true),
  // The origin browsers reach the service at (scheme, host and port, no path): allowed for refresh and logout like
  // an ALLOWED_ORIGINS entry, and the address the start-up lines and the console's first-uplink guide name.
  PUBLIC_URL: Joi.string()
    .pattern(/^https?:\/\/[^/\s]+\/?$/)
    .messages({ 'string.pattern.base': 'must be an origin such as https://uplink.example.com (scheme, host and optional port, no path)' }),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).max(120000).default(10000),
  // Longer than the idle timeout of any proxy or client pool in front (load balancers keep 60 s): the side that
  // closes an idle connection must be the client, or a request sent on it as the server closes it is lost.
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Joi.number().integer().min(1000).max(600000).default(65000),
  JWT_SECRET: secret(32).when('NODE_ENV', { is: 'production', then: Joi.required() }),
  CURSOR_SECRET: secret(32).when('NODE_ENV', { is: 'production', then: Joi.required() }),
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
  AUTH_CACHE_TTL_MS: Joi.number().integer().min(0).max(3600000).default(30000),
  AUTH_CACHE_LISTEN_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }).optional(),
  ANALYTICS_ENABLED: bool.default(false),
  ANALYTICS_SECRET: secret(32).when('ANALYTICS_ENABLED', { is: true, then: Joi.required() }),
  PLATFORM_ADMIN_USERNAME: Joi.string().pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/).optional(),
  PLATFORM_ADMIN_EMAIL: Joi.string().pattern(EMAIL_PATTERN, 'e-mail address').max(254).optional(),
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
  FLOW_EXECUTION_TIMEOUT_MS: Joi.number().integer().min(1).max(60000).default(1000),
  PROCESSING_ENABLED: bool.default(true),
  PROCESSING_WORKERS: Joi.number().integer().min(1).max(32).default(2),
  PROCESSING_BATCH_SIZE: Joi.number().integer().min(1).max(1000).default(250),
  PROCESSING_POLL_INTERVAL_MS: Joi.number().integer().min(10).max(60000).default(250),
  RAW_RETENTION_DAYS: Joi.number().integer().min(1).max(3650).default(30),
  EXECUTION_RETENTION_DAYS: Joi.number().integer().min(1).max(3650).default(14),
  SMTP_URL: Joi.string()
    .uri({ scheme: ['smtp', 'smtps'] })
    .optional()
    .messages({
      'string.uri': '{{#label}} must be an SMTP URL such as smtp://user:pass@host:587 or smtps://host:465',
      'string.uriCustomScheme': '{{#label}} must be an SMTP URL such as smtp://user:pass@host:587 or smtps://host:465',
    }),
  MAIL_FROM: Joi.string().min(3).max(320).default('Uplink <uplink@localhost>'),
  SMTP_POOL: bool.default(true),
  SMTP_MAX_CONNECTIONS: Joi.number().integer().min(1).max(100).default(5),
  SMTP_TIMEOUT_MS: Joi.number().integer().min(100).max(600000).default(30000),
  ACTIONS_MAX_EMAILS_PER_HOUR: Joi.number().integer().min(1).max(10000000).default(1000),
  ACTIONS_TEST_SENDS_PER_MINUTE: Joi.number().integer().min(1).max(10000).default(5),
  MQTT_ENABLED: bool.default(false),
  MQTT_URL: Joi.string()
    .uri({ scheme: ['mqtt', 'mqtts', 'ws', 'wss'] })
    .custom((value: string, helpers) => (/^[a-z]+:\/\/[^/]*@/i.test(value) ? helpers.error('string.mqttCredentials') : value))
    .optional()
    .messages({
      'string.uri': '{{#label}} must be a broker URL such as mqtt://broker:1883 (schemes mqtt, mqtts, ws, wss)',
      'string.uriCustomScheme': '{{#label}} must be a broker URL such as mqtt://broker:1883 (schemes mqtt, mqtts, ws, wss)',
      'string.mqttCredentials': '{{#label}} must not carry credentials: set MQTT_USERNAME and MQTT_PASSWORD instead',
    }),
  MQTT_USERNAME: Joi.string().max(256).optional(),
  MQTT_PASSWORD: Joi.string().max(1024).optional(),
  MQTT_CLIENT_ID: Joi.string()
    .pattern(/^[\x21-\x7E]{1,128}$/)
    .default(DEFAULT_MQTT_CLIENT_ID)
    .messages({ 'string.pattern.base': '{{#label}} must be 1..128 printable ASCII characters without spaces' }),
  MQTT_TOPICS: Joi.string()
    .optional()
    .custom((value: string, helpers) => {
      const filters = splitList(value);
      if (filters.length === 0) return helpers.error('string.mqttTopics');
      for (const filter of filters) {
        const problem = mqttTopicFilterProblem(filter);
        if (problem) return helpers.error('string.mqttTopic', { topic: filter, problem });
      }
      return value;
    })
    .messages({
      'string.mqttTopics': '{{#label}} must list at least one topic filter',
      'string.mqttTopic': '{{#label}} entry {{#topic}} is not a valid MQTT topic filter ({{#problem}})',
    }),
  MQTT_FORMAT: Joi.string().valid(...MQTT_FORMATS).default('chirpstack'),
  LEGACY_IMPORT_BASE_URL_PATTERN: Joi.string()
    .optional()
    .custom((value: string, helpers) => {
      const problem = legacyImportPatternProblem(value);
      return problem ? helpers.error('string.legacyImportPattern', { problem }) : value;
    })
    .messages({ 'string.legacyImportPattern': '{{#label}} {{#problem}}' }),
  LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK: bool
    .default(false)
    .when('NODE_ENV', { is: 'production', then: Joi.valid(false).messages({ 'any.only': '{{#label}} is for tests and cannot be true in production' }) }),
  GIT_COMMIT: Joi.string().max(64).optional(),
  BUILT_AT: Joi.string().isoDate().optional(),
})
  // The process shares its environment with the OS and tooling; only our own variables are validated.
  .unknown(true);

/**
 * A key or token: at least `min` characters and, in production, not one of the placeholders found in example
 * files (`change-me…`, `replace-me…`, `placeholder`, `secret…`), which would make every installation share a key.
 */
function secret(min: number): Joi.StringSchema {
  return Joi.string()
    .min(min)
    .optional()
    .when('NODE_ENV', {
      is: 'production',
      then: Joi.string()
        .custom((value: string, helpers) => (isPlaceholder(value) ? helpers.error('string.placeholder') : value))
        .messages({ 'string.placeholder': PLACEHOLDER_MESSAGE }),
    })
    .messages({ 'string.placeholder': PLACEHOLDER_MESSAGE });
}

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}

/**
 * Express's `trust proxy` value for TRUST_PROXY, or undefined when the text is not one: `false`/`true`, a hop count,
 * or a comma-separated list of `loopback`, `linklocal`, `uniquelocal`, IP addresses and CIDR ranges.
 */
export function parseTrustProxy(value: string): boolean | number | string[] | undefined {
  const text = value.trim().toLowerCase();
  if (text === 'false' || text === '0' || text === 'off' || text === 'no') return false;
  if (text === 'true') return true;
  if (/^[0-9]{1,3}$/.test(text)) return Number(text);
  const entries = splitList(text);
  if (entries.length === 0) return undefined;
  const valid = entries.every((entry) => {
    if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    if (family === 0 || rest.length > 0) return false;
    if (bits === undefined) return true;
    if (!/^[0-9]{1,3}$/.test(bits)) return false;
    return Number(bits) <= (family === 4 ? 32 : 128);
  });
  return valid ? entries : undefined;
}

export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
}

/**
 * Why `filter` is not an MQTT topic filter, or null when it is one: levels split on `/`, `+` fills a whole level,
 * `#` is a whole level and the last one, no NUL, at most 65535 bytes. A shared subscription
 * (`$share/<group>/<filter>`) names a group without wildcards before its filter.
 */
export function mqttTopicFilterProblem(filter: string): string | null {
  if (Buffer.byteLength(filter) > 65535) return 'longer than 65535 bytes';
  if (filter.includes('\u0000')) return 'contains NUL';
  let levels = filter.split('/');
  if (levels[0] === '$share') {
    const group = levels[1] ?? '';
    if (group === '' || /[+#]/.test(group)) return 'a shared subscription needs a group name without wildcards';
    levels = levels.slice(2);
    if (levels.length === 0) return 'a shared subscription needs a topic filter after its group';
  }
  for (const [index, level] of levels.entries()) {
    if (level.includes('#') && (level !== '#' || index !== levels.length - 1)) return '# must be a whole level and the last one';
    if (level.includes('+') && level !== '+') return '+ must be a whole level';
  }
  return null;
}

/**
 * Why `pattern` cannot be the accepted legacy import address pattern, or null when it can: an ECMAScript regular
 * expression anchored at both ends (`^https://…$`), without a top-level alternative that would escape the anchors
 * (`^https://a$|http://b`), for https addresses only.
 */
export function legacyImportPatternProblem(pattern: string): string | null {
  try {
    new RegExp(pattern);
  } catch {
    return 'is not a valid ECMAScript regular expression';
  }
  if (!pattern.startsWith('^https://')) return 'must start with ^https:// (https addresses only, anchored at the start)';
  if (!pattern.endsWith('$') || pattern.endsWith('\\$')) return 'must end with $ (anchored at the end)';
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      continue;
    }
    if (char === '[') inClass = true;
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) return 'must not have a top-level | (each alternative would escape the anchors; group them: ^https://(a|b)$)';
  }
  return null;
}
