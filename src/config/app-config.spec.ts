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
      expect(config.httpKeepAliveTimeoutMs).toBe(65000);
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

    it('refuses a keep-alive timeout under a second or over ten minutes', () => {
      expect(AppConfig.fromEnv({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '120000' }).httpKeepAliveTimeoutMs).toBe(120000);
      expect(() => AppConfig.fromEnv({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '999' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
      expect(() => AppConfig.fromEnv({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '600001' })).toThrow(/HTTP_KEEP_ALIVE_TIMEOUT_MS/);
    });

    it.each(['false', 'FALSE', '0', 'no', 'off'])('reads DB_MIGRATIONS_RUN=%s as false', (value) => {
      expect(AppConfig.fromEnv({ DB_MIGRATIONS_RUN: value }).migrationsRun).toBe(false);
    });

    it.each(['true', '1', 'yes', 'on'])('reads DB_MIGRATIONS_RUN=%s as true', (value) => {
      expect(AppConfig.fromEnv({ DB_MIGRATIONS_RUN: value }).migrationsRun).toBe(true);
    });

    it('serves the console unless CONSOLE_ENABLED is false, and allows the PUBLIC_URL origin', () => {
      expect(AppConfig.fromEnv({}).consoleEnabled).toBe(true);
      expect(AppConfig.fromEnv({ CONSOLE_ENABLED: 'false' }).consoleEnabled).toBe(false);
      const config = AppConfig.fromEnv({ NODE_ENV: 'test', PUBLIC_URL: 'https://uplink.example.com/', ALLOWED_ORIGINS: 'https://a.example' });
      expect(config.publicUrl).toBe('https://uplink.example.com');
      expect(config.allowedOrigins).toEqual(['https://a.example', 'https://uplink.example.com']);
      expect(config.isOriginAllowed('https://uplink.example.com')).toBe(true);
      expect(() => AppConfig.fromEnv({ PUBLIC_URL: 'https://uplink.example.com/console' })).toThrow(/PUBLIC_URL: must be an origin/);
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
    const PRODUCTION = { NODE_ENV: 'production', METRICS_TOKEN: PRODUCTION_TOKEN, JWT_SECRET: 'j'.repeat(32), CURSOR_SECRET: 'c'.repeat(32) };

    it('names every missing variable in one message', () => {
      const { message } = configErrorFor({ NODE_ENV: 'production' });
      expect(message.split('\n')).toEqual([
        'Invalid configuration (3 problems):',
        '  METRICS_TOKEN: METRICS_TOKEN is required',
        '  JWT_SECRET: JWT_SECRET is required',
        '  CURSOR_SECRET: CURSOR_SECRET is required',
      ]);
    });

    it.each(['METRICS_TOKEN', 'JWT_SECRET', 'CURSOR_SECRET'])('requires %s', (variable) => {
      const env: NodeJS.ProcessEnv = { ...PRODUCTION };
      delete env[variable];
      expect(configErrorFor(env).message).toBe(`Invalid configuration: ${variable}: ${variable} is required`);
    });

    it('starts with a METRICS_TOKEN of at least 16 characters, a JWT_SECRET and a CURSOR_SECRET', () => {
      const config = AppConfig.fromEnv(PRODUCTION);
      expect(config.nodeEnv).toBe('production');
      expect(config.metricsToken).toBe(PRODUCTION_TOKEN);
    });

    it.each([
      ['JWT_SECRET', 'change-me-jwt-secret-of-32-characters-or-more'],
      ['CURSOR_SECRET', 'CHANGE_ME_cursor_secret_of_32_characters_or_more'],
      ['METRICS_TOKEN', 'replace-me-metrics-token'],
      ['METRICS_TOKEN', 'changeme-changeme-changeme'],
      ['JWT_SECRET', 'placeholder-placeholder-placeholder-32'],
    ])('refuses the placeholder %s=%s', (variable, value) => {
      expect(configErrorFor({ ...PRODUCTION, [variable]: value }).message).toBe(
        `Invalid configuration: ${variable}: ${variable} is a placeholder value; production needs a random one (e.g. openssl rand -base64 48)`,
      );
    });

    it('refuses the placeholders the compose file used to carry, all in one message', () => {
      const { message } = configErrorFor({
        NODE_ENV: 'production',
        METRICS_TOKEN: 'change-me-metrics-token',
        JWT_SECRET: 'change-me-jwt-secret-of-32-characters-or-more',
        CURSOR_SECRET: 'change-me-cursor-secret-of-32-characters-or-more',
      });
      expect(message).toMatch(/^Invalid configuration \(3 problems\):\n {2}METRICS_TOKEN: .*placeholder.*\n {2}JWT_SECRET: .*placeholder.*\n {2}CURSOR_SECRET: .*placeholder/);
    });

    it('accepts such values outside production (development convenience)', () => {
      expect(AppConfig.fromEnv({ JWT_SECRET: 'change-me-jwt-secret-of-32-characters-or-more' }).jwtSecret).toBe(
        'change-me-jwt-secret-of-32-characters-or-more',
      );
    });
  });

  describe('TRUST_PROXY', () => {
    it('is off by default', () => {
      expect(AppConfig.fromEnv({}).trustProxy).toBe(false);
    });

    it.each<[string, boolean | number | string[]]>([
      ['false', false],
      ['true', true],
      ['1', 1],
      ['2', 2],
      ['loopback', ['loopback']],
      ['loopback, 10.0.0.0/8,fd00::/8', ['loopback', '10.0.0.0/8', 'fd00::/8']],
      ['192.168.1.7', ['192.168.1.7']],
      ['uniquelocal,linklocal', ['uniquelocal', 'linklocal']],
    ])('reads %s in Express\'s terms', (value, expected) => {
      expect(AppConfig.fromEnv({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
    });

    it.each(['yes please', '10.0.0.0/33', '300.1.1.1', ',', '1.2.3.4/8/9', '-1', 'everyone'])('refuses %j', (value) => {
      expect(configErrorFor({ TRUST_PROXY: value }).message).toMatch(/^Invalid configuration: TRUST_PROXY: TRUST_PROXY must be false, true, a hop count/);
    });
  });

  describe('browser origins', () => {
    it('allows exactly the ALLOWED_ORIGINS entries', () => {
      const config = AppConfig.fromEnv({ NODE_ENV: 'test', ALLOWED_ORIGINS: 'https://console.example.com' });
      expect(config.isOriginAllowed('https://console.example.com')).toBe(true);
      expect(config.isOriginAllowed('https://console.example.com:8443')).toBe(false);
      expect(config.isOriginAllowed('http://localhost:4200')).toBe(false);
      expect(config.isOriginAllowed(undefined)).toBe(false);
    });

    it('in development also allows http://localhost and http://127.0.0.1 on any port', () => {
      const config = AppConfig.fromEnv({ NODE_ENV: 'development' });
      expect(config.isOriginAllowed('http://localhost:4200')).toBe(true);
      expect(config.isOriginAllowed('http://127.0.0.1:5173')).toBe(true);
      expect(config.isOriginAllowed('http://localhost')).toBe(true);
      expect(config.isOriginAllowed('https://localhost:4200')).toBe(false);
      expect(config.isOriginAllowed('http://localhost.example.com')).toBe(false);
      expect(config.isOriginAllowed('http://evil.test')).toBe(false);
    });

    it.each(['production', 'test'])('does not allow local origins by default in %s', (nodeEnv) => {
      const env = nodeEnv === 'production' ? { NODE_ENV: nodeEnv, METRICS_TOKEN: PRODUCTION_TOKEN, JWT_SECRET: 'j'.repeat(32), CURSOR_SECRET: 'c'.repeat(32) } : { NODE_ENV: nodeEnv };
      expect(AppConfig.fromEnv(env).isOriginAllowed('http://localhost:4200')).toBe(false);
    });
  });

  describe('MQTT', () => {
    it('is off by default', () => {
      expect(AppConfig.fromEnv({}).mqtt).toBeNull();
    });

    it('reads the broker, a stable client id and the ChirpStack uplink topic by default', () => {
      expect(AppConfig.fromEnv({ MQTT_ENABLED: 'true', MQTT_URL: 'mqtt://broker.internal:1883' }).mqtt).toEqual({
        url: 'mqtt://broker.internal:1883',
        username: null,
        password: null,
        clientId: 'uplink-ingestion',
        topics: ['application/+/device/+/event/up'],
        format: 'chirpstack',
      });
    });

    it('defaults the topic to the format, splits MQTT_TOPICS on commas and accepts shared subscriptions', () => {
      const tts = AppConfig.fromEnv({ MQTT_ENABLED: 'on', MQTT_URL: 'mqtts://eu1.cloud.thethings.network:8883', MQTT_FORMAT: 'tts' });
      expect(tts.mqtt?.topics).toEqual(['v3/+/devices/+/up']);
      const many = AppConfig.fromEnv({
        MQTT_ENABLED: '1',
        MQTT_URL: 'wss://broker.example.com/mqtt',
        MQTT_USERNAME: 'uplink',
        MQTT_PASSWORD: 'secret',
        MQTT_CLIENT_ID: 'uplink-eu-1',
        MQTT_TOPICS: 'application/+/device/+/event/up, $share/uplink/application/+/device/+/event/#',
      });
      expect(many.mqtt).toMatchObject({
        username: 'uplink',
        password: 'secret',
        clientId: 'uplink-eu-1',
        topics: ['application/+/device/+/event/up', '$share/uplink/application/+/device/+/event/#'],
      });
    });

    it('names every MQTT problem in the one start-up message', () => {
      const { message } = configErrorFor({ MQTT_ENABLED: 'true', MQTT_PASSWORD: 'secret', MQTT_TOPICS: 'a/#/b' });
      expect(message.split('\n')).toEqual([
        'Invalid configuration (3 problems):',
        '  MQTT_TOPICS: MQTT_TOPICS entry a/#/b is not a valid MQTT topic filter (# must be a whole level and the last one)',
        '  MQTT_USERNAME: is required when MQTT_PASSWORD is set',
        '  MQTT_URL: is required when MQTT_ENABLED is true',
      ]);
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
      ['MQTT_ENABLED', { MQTT_ENABLED: 'perhaps' }],
      ['MQTT_URL', { MQTT_ENABLED: 'true', MQTT_URL: 'http://broker:1883' }],
      ['MQTT_URL', { MQTT_ENABLED: 'true', MQTT_URL: 'broker:1883' }],
      ['MQTT_URL', { MQTT_ENABLED: 'true', MQTT_URL: 'mqtt://uplink:secret@broker:1883' }],
      ['MQTT_URL', { MQTT_ENABLED: 'true' }],
      ['MQTT_USERNAME', { MQTT_PASSWORD: 'secret' }],
      ['MQTT_CLIENT_ID', { MQTT_CLIENT_ID: 'two words' }],
      ['MQTT_TOPICS', { MQTT_TOPICS: 'application/#/up' }],
      ['MQTT_TOPICS', { MQTT_TOPICS: 'application/x+/up' }],
      ['MQTT_TOPICS', { MQTT_TOPICS: ' , ' }],
      ['MQTT_TOPICS', { MQTT_TOPICS: '$share/+/application/#' }],
      ['MQTT_FORMAT', { MQTT_FORMAT: 'loriot' }],
    ])('rejects a bad %s in one line naming the variable', (variable, env) => {
      const error = configErrorFor(env);
      expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable}: [^\\n]+$`));
      expect(error.message).not.toContain('"');
    });

    it('reports every problem at once, one line per variable', () => {
      const { message } = configErrorFor({ PORT: 'http', NODE_ENV: 'staging', LOG_LEVEL: 'verbose', PLATFORM_ADMIN_USERNAME: 'someone' });
      expect(message.split('\n')).toEqual([
        'Invalid configuration (5 problems):',
        expect.stringMatching(/^ {2}NODE_ENV: /),
        expect.stringMatching(/^ {2}PORT: /),
        expect.stringMatching(/^ {2}LOG_LEVEL: /),
        '  PLATFORM_ADMIN_EMAIL: is required when PLATFORM_ADMIN_USERNAME is set',
        '  PLATFORM_ADMIN_PASSWORD: is required when PLATFORM_ADMIN_USERNAME is set',
      ]);
      expect(message).not.toContain('"');
    });
  });
});
