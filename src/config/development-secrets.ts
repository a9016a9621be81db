import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppConfig } from './app-config';

/** The local data folder (`./.data` by default): the embedded cluster's parent, also holding development files. */
export function dataDirOf(config: Pick<AppConfig, 'embeddedPgDir'>): string {
  return resolve(dirname(config.embeddedPgDir));
}

export function developmentSecretsFile(config: Pick<AppConfig, 'embeddedPgDir'>): string {
  return join(dataDirOf(config), 'development-secrets.json');
}

type Keys = { JWT_SECRET: string; CURSOR_SECRET: string };

/**
 * In development, a JWT_SECRET or CURSOR_SECRET left unset is generated once and kept in
 * `.data/development-secrets.json` (mode 600), so access tokens and list cursors survive restarts. Values from
 * the environment always win; outside development nothing is read or written (production requires both keys,
 * tests use a fresh key per process).
 */
export function withDevelopmentSecrets(env: NodeJS.ProcessEnv, config: AppConfig): AppConfig {
  if (config.nodeEnv !== 'development') return config;
  const unset = (name: keyof Keys) => (env[name] ?? '').trim() === '';
  if (!unset('JWT_SECRET') && !unset('CURSOR_SECRET')) return config;

  const file = developmentSecretsFile(config);
  let kept: Partial<Keys> = {};
  if (existsSync(file)) {
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<Keys>;
    } catch {
      kept = {};
    }
  }
  const valid = (value: unknown): value is string => typeof value === 'string' && value.length >= 32;
  const keys: Keys = {
    JWT_SECRET: valid(kept.JWT_SECRET) ? kept.JWT_SECRET : randomBytes(32).toString('base64url'),
    CURSOR_SECRET: valid(kept.CURSOR_SECRET) ? kept.CURSOR_SECRET : randomBytes(32).toString('base64url'),
  };
  if (keys.JWT_SECRET !== kept.JWT_SECRET || keys.CURSOR_SECRET !== kept.CURSOR_SECRET) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  }
  // An older file may have been created with a laxer mode; the keys are credentials.
  chmodSync(file, 0o600);
  return AppConfig.fromEnv(env, {
    jwtSecret: unset('JWT_SECRET') ? keys.JWT_SECRET : config.jwtSecret,
    cursorSecret: unset('CURSOR_SECRET') ? keys.CURSOR_SECRET : config.cursorSecret,
  });
}
