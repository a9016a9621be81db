import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { AppConfig, ConfigValidationError } from '../src/config/app-config';
import { envSchema } from '../src/config/env.schema';
import { initialAdminPasswordFile } from '../src/modules/identity/bootstrap/platform-admin-bootstrap';

/*
 * The deployment files, checked without a Docker engine or a cluster: they parse, they agree with the
 * configuration schema, and the environment they give the service starts (development) or fails clearly
 * (production without real keys).
 */

const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const VARIABLES = Object.keys((envSchema.describe().keys ?? {}) as Record<string, unknown>);

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Compose's `${NAME:-default}` / `${NAME}` interpolation against `shell`. */
function interpolate(value: string, shell: Record<string, string>): string {
  return value.replace(/\$\{([A-Z_][A-Z0-9_]*)(?::-([^}]*))?\}/g, (_all, name: string, fallback?: string) =>
    shell[name] !== undefined && shell[name] !== '' ? shell[name]! : (fallback ?? ''),
  );
}

function configError(env: NodeJS.ProcessEnv): string {
  try {
    AppConfig.fromEnv(env);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.message;
    throw error;
  }
  return '';
}

describe('docker/compose.yaml', () => {
  const compose = parse(read('docker/compose.yaml')) as Doc;
  const app = compose.services.app as Doc;
  const appEnv = (shell: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(app.environment as Record<string, string>).map(([name, value]) => [name, interpolate(String(value), shell)]));

  it('has the app, its PostgreSQL and a local mail catcher, the app waiting for a healthy database and checking /readyz', () => {
    expect(Object.keys(compose.services)).toEqual(['postgres', 'app', 'mailpit']);
    expect(app.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
    expect(app.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, mailpit: { condition: 'service_started' } });
    expect(app.healthcheck.test.join(' ')).toContain('/readyz');
    expect(app.ports).toEqual(['3000:3000']);
  });

  it('passes only variables the service reads', () => {
    expect(Object.keys(app.environment).filter((name) => !VARIABLES.includes(name))).toEqual([]);
  });

  it('carries no default key or token (no placeholder can reach production)', () => {
    for (const name of ['METRICS_TOKEN', 'JWT_SECRET', 'CURSOR_SECRET', 'PLATFORM_ADMIN_PASSWORD']) {
      expect(app.environment[name]).toBe(`\${${name}:-}`);
    }
  });

  it('starts a usable development service out of the box: a valid configuration that creates the first admin', () => {
    const config = AppConfig.fromEnv(appEnv());
    expect(config.nodeEnv).toBe('development');
    expect(config.databaseUrl).toBe('postgres://uplink:uplink@postgres:5432/uplink');
    expect(config.platformAdmin).toBeNull(); // so the development admin is created, its password in the data volume
  });

  it('keeps the one-time password where the README tells you to read it', () => {
    const volume = (app.volumes as string[]).find((entry) => entry.startsWith('appdata:'));
    expect(volume).toBe('appdata:/app/.data');
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['pgdata', 'appdata']));
    // The image's working directory is /app: the service resolves its data folder there.
    const config = AppConfig.fromEnv(appEnv());
    const file = posix.join('/app', posix.relative(process.cwd().split('\\').join('/'), initialAdminPasswordFile(config)));
    expect(file).toBe('/app/.data/initial-admin-password');
    expect(read('docker/compose.yaml')).toContain(`exec app cat ${file}`);
    expect(read('docs/operations.md')).toContain(`docker compose -f docker/compose.yaml exec app cat ${file}`);
  });

  it('in production without real keys, refuses to start naming every missing variable at once', () => {
    const message = configError(appEnv({ NODE_ENV: 'production' }));
    expect(message).toMatch(/^Invalid configuration \(3 problems\):/);
    for (const name of ['METRICS_TOKEN', 'JWT_SECRET', 'CURSOR_SECRET']) expect(message).toContain(`  ${name}: ${name} is required`);
  });

  it('in production refuses the placeholders the compose file used to default to', () => {
    const message = configError(
      appEnv({
        NODE_ENV: 'production',
        METRICS_TOKEN: 'change-me-metrics-token',
        JWT_SECRET: 'change-me-jwt-secret-of-32-characters-or-more',
        CURSOR_SECRET: 'change-me-cursor-secret-of-32-characters-or-more',
      }),
    );
    expect(message.match(/is a placeholder value/g)).toHaveLength(3);
  });

  it('starts in production with real keys', () => {
    const real = { NODE_ENV: 'production', METRICS_TOKEN: 'Qx7-metrics-4f9a1c2e', JWT_SECRET: 'k'.repeat(12) + 'Zr81mPq0aa'.repeat(3), CURSOR_SECRET: 'Tt4'.repeat(12) };
    expect(AppConfig.fromEnv(appEnv(real)).nodeEnv).toBe('production');
  });
});

describe('docker/Dockerfile and .dockerignore', () => {
  it('gives the non-root user a writable /app/.data and runs node directly', () => {
    const dockerfile = read('docker/Dockerfile');
    expect(dockerfile).toMatch(/RUN mkdir -p \/app\/\.data && chown node:node \/app\/\.data/);
    expect(dockerfile.indexOf('chown node:node /app/.data')).toBeLessThan(dockerfile.indexOf('USER node'));
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
    const cmd = /^CMD \["node", (.*), "dist\/main\.js"\]$/m.exec(dockerfile);
    expect(cmd).not.toBeNull();
    // The image runs node with the same options as `npm start`.
    const startOptions = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start.match(/ (--[^\s]+)/g)!.map((option) => option.trim());
    expect(JSON.parse(`[${cmd![1]}]`)).toEqual(startOptions);
  });

  it('keeps dependencies, local data, build output, secrets and history out of the build context', () => {
    const ignored = read('.dockerignore').split('\n').map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.data', 'dist', 'coverage', '.git', '.env']));
  });
});

describe('docker/k8s', () => {
  const docs = readdirSync(join(ROOT, 'docker', 'k8s'))
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => parseAllDocuments(read(join('docker', 'k8s', file))).map((doc) => doc.toJSON() as Doc));
  const byKind = (kind: string) => docs.find((doc) => doc.kind === kind)!;
  const deployment = byKind('Deployment');
  const pod = deployment.spec.template.spec as Doc;
  const container = pod.containers[0] as Doc;

  it('has a Deployment, a Service and a Secret example', () => {
    expect(docs.map((doc) => doc.kind).sort()).toEqual(['Deployment', 'Secret', 'Service']);
  });

  it('probes liveness on /healthz and readiness on /readyz, on the container port', () => {
    expect(container.ports).toEqual([{ name: 'http', containerPort: 3000 }]);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.startupProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
  });

  it('runs several replicas in production behind one trusted proxy hop, with resources and a locked-down context', () => {
    expect(deployment.spec.replicas).toBeGreaterThan(1);
    const env = Object.fromEntries((container.env as { name: string; value: string }[]).map(({ name, value }) => [name, value]));
    expect(Object.keys(env).filter((name) => !VARIABLES.includes(name))).toEqual([]);
    expect(env).toMatchObject({ NODE_ENV: 'production', TRUST_PROXY: '1' });
    expect(container.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits.memory).toEqual(expect.any(String));
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
  });

  it('lets the service drain before the kubelet kills it', () => {
    const shutdownMs = Number(container.env.find((entry: Doc) => entry.name === 'SHUTDOWN_TIMEOUT_MS').value);
    const preStopSeconds = Number(container.lifecycle.preStop.exec.command[1]);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownMs + preStopSeconds * 1000);
  });

  it('takes its secrets from the example Secret, whose keys the service reads and whose values production refuses', () => {
    const secret = byKind('Secret');
    expect(container.envFrom).toEqual([{ secretRef: { name: secret.metadata.name } }]);
    const keys = Object.keys(secret.stringData);
    expect(keys.filter((name) => !VARIABLES.includes(name))).toEqual([]);
    expect(keys).toEqual(expect.arrayContaining(['DATABASE_URL', 'JWT_SECRET', 'CURSOR_SECRET', 'METRICS_TOKEN']));
    const env = Object.fromEntries((container.env as { name: string; value: string }[]).map(({ name, value }) => [name, value]));
    expect(configError({ ...env, ...secret.stringData })).toMatch(/METRICS_TOKEN: .*placeholder[\s\S]*JWT_SECRET: .*placeholder[\s\S]*CURSOR_SECRET: .*placeholder/);
  });

  it('has a Service selecting the pods on the named port', () => {
    const service = byKind('Service');
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.ports[0].targetPort).toBe('http');
  });
});
