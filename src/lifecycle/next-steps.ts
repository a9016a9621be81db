import { existsSync } from 'node:fs';
import { AppConfig } from '../config/app-config';
import { initialAdminPasswordFile, PlatformAdminBootstrap } from '../modules/identity/bootstrap/platform-admin-bootstrap';

export interface NextStep {
  text: string;
  /** Something that blocks a first sign-in. */
  warn?: boolean;
}

/** A URL a person can open: a wildcard bind address becomes `localhost`. */
export function publicUrl(config: Pick<AppConfig, 'host' | 'port'>): string {
  const host = ['0.0.0.0', '::', '[::]'].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port}`;
}

/**
 * Where the web console is. Outside development a browser's refresh and logout need the console's origin allowed:
 * PUBLIC_URL (or an ALLOWED_ORIGINS entry) says which, so its absence is named.
 */
function consoleStep(config: AppConfig, url: string): NextStep {
  if (!config.consoleEnabled) return { text: 'Web console is off (CONSOLE_ENABLED=false)' };
  const consoleUrl = `${config.publicUrl ?? url}/console`;
  if (config.publicUrl !== null || config.nodeEnv !== 'production') return { text: `Web console: ${consoleUrl}` };
  return {
    text: `Web console: ${consoleUrl} (set PUBLIC_URL to the origin browsers use, e.g. https://uplink.example.com, or sign-ins will not survive a reload)`,
    warn: true,
  };
}

/**
 * The end of the start-up output: the URL, the API documentation, and how the first admin signs in (the one-time
 * password file while it exists, i.e. until that password is changed).
 */
export function nextSteps(config: AppConfig, admin: PlatformAdminBootstrap['outcome']): NextStep[] {
  const url = publicUrl(config);
  const steps: NextStep[] = [{ text: `Ready: ${url} (health: ${url}/readyz)` }];
  steps.push(
    config.docsEnabled
      ? { text: `API documentation: ${url}/docs (OpenAPI document: ${url}/docs/openapi.json)` }
      : { text: 'API documentation is off (DOCS_ENABLED=false)' },
    consoleStep(config, url),
  );
  const passwordFile = initialAdminPasswordFile(config);
  if (existsSync(passwordFile)) {
    const who = admin?.result === 'created' && admin.username ? `'${admin.username}'` : 'the first admin';
    steps.push({
      text: `First sign-in: ${who} with the one-time password in ${passwordFile}; POST /v1/auth/login, then POST /v1/auth/change-password (which deletes the file)`,
    });
  } else if (admin?.result === 'unconfigured') {
    steps.push({
      text: 'No platform admin exists: set PLATFORM_ADMIN_USERNAME, PLATFORM_ADMIN_EMAIL and PLATFORM_ADMIN_PASSWORD and restart (nobody can sign in until then)',
      warn: true,
    });
  }
  return steps;
}
