import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from './app-config';
import { developmentSecretsFile, withDevelopmentSecrets } from './development-secrets';

describe('withDevelopmentSecrets', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'uplink-dev-secrets-'));
    env = { NODE_ENV: 'development', EMBEDDED_PG_DIR: join(dir, '.data', 'postgres') };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const load = (vars: NodeJS.ProcessEnv) => withDevelopmentSecrets(vars, AppConfig.fromEnv(vars));

  it('generates both keys once, keeps them in .data/development-secrets.json (mode 600) and reuses them', () => {
    const first = load(env);
    const file = developmentSecretsFile(first);
    expect(file).toBe(join(dir, '.data', 'development-secrets.json'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ JWT_SECRET: first.jwtSecret, CURSOR_SECRET: first.cursorSecret });
    expect(first.jwtSecret).not.toBe(first.cursorSecret);
    const second = load(env);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.cursorSecret).toBe(first.cursorSecret);
  });

  it('lets a key from the environment win and keeps the other', () => {
    const own = 'j'.repeat(40);
    const config = load({ ...env, JWT_SECRET: own });
    expect(config.jwtSecret).toBe(own);
    expect(JSON.parse(readFileSync(developmentSecretsFile(config), 'utf8')).CURSOR_SECRET).toBe(config.cursorSecret);
  });

  it('replaces a damaged file and tightens its mode', () => {
    const file = join(dir, '.data', 'development-secrets.json');
    load(env);
    writeFileSync(file, 'not json', { mode: 0o644 });
    const config = load(env);
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each(['test', 'production'])('touches nothing in %s', (nodeEnv) => {
    const vars: NodeJS.ProcessEnv = { ...env, NODE_ENV: nodeEnv, METRICS_TOKEN: 'm'.repeat(20), JWT_SECRET: 'j'.repeat(32), CURSOR_SECRET: 'c'.repeat(32) };
    if (nodeEnv === 'test') delete vars.JWT_SECRET;
    const config = load(vars);
    expect(() => statSync(developmentSecretsFile(config))).toThrow();
  });
});
