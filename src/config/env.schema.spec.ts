import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envSchema } from './env.schema';

const ROOT = join(__dirname, '..', '..');
const VARIABLES = Object.keys((envSchema.describe().keys ?? {}) as Record<string, unknown>);

function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('environment documentation', () => {
  it('knows the variables of the schema', () => {
    expect(VARIABLES).toEqual(expect.arrayContaining(['NODE_ENV', 'PORT', 'DATABASE_URL', 'METRICS_TOKEN']));
  });

  describe('.env.example', () => {
    it.each(VARIABLES)('has a %s= line', (variable) => {
      expect(read('.env.example')).toMatch(new RegExp(`^${escapeRegExp(variable)}=`, 'm'));
    });

    it('lists no variable the service does not read', () => {
      const listed = [...read('.env.example').matchAll(/^([A-Za-z_][A-Za-z0-9_]*)=/gm)].map(([, name]) => name);
      expect(listed.filter((name) => !VARIABLES.includes(name ?? ''))).toEqual([]);
    });
  });

  describe('docs/configuration.md', () => {
    it.each(VARIABLES)('has a table row for %s', (variable) => {
      expect(read('docs/configuration.md')).toMatch(new RegExp(`^\\|\\s*\`${escapeRegExp(variable)}\``, 'm'));
    });
  });

  describe('what production requires', () => {
    // The schema is the truth: the variables a bare NODE_ENV=production start reports as required.
    const required = (envSchema.validate({ NODE_ENV: 'production' }, { abortEarly: false }).error?.details ?? [])
      .filter((detail) => detail.type === 'any.required')
      .map((detail) => String(detail.path[0]));
    const listed = (text: string) => [...text.matchAll(/\b([A-Z][A-Z0-9_]{2,})\b/g)].map(([, name]) => name);

    it('is a known set', () => {
      expect(required).toEqual(['METRICS_TOKEN', 'JWT_SECRET', 'CURSOR_SECRET']);
    });

    it('is what .env.example says next to NODE_ENV', () => {
      const comment = /production \(requires ([^;)]*)/.exec(read('.env.example'))?.[1] ?? '';
      expect(listed(comment)).toEqual(required);
    });

    it('is what docs/configuration.md says in the NODE_ENV row', () => {
      const row = /^\| `NODE_ENV` .*$/m.exec(read('docs/configuration.md'))?.[0] ?? '';
      const requires = /`production` \(requires ([^;)]*)/.exec(row)?.[1] ?? '';
      expect(listed(requires)).toEqual(required);
    });

    it.each(['METRICS_TOKEN', 'JWT_SECRET', 'CURSOR_SECRET'])('and each of them says it is required in production (%s)', (variable) => {
      const row = new RegExp(`^\\| \`${variable}\` .*$`, 'm').exec(read('docs/configuration.md'))?.[0] ?? '';
      expect(row).toMatch(/required in production/i);
      const example = read('.env.example');
      const comment = example.slice(0, example.search(new RegExp(`^${variable}=`, 'm'))).split(/\n(?=[A-Z_]+=)/).pop() ?? '';
      expect(comment).toMatch(/required in production/i);
    });
  });
});

describe('LEGACY_IMPORT_BASE_URL_PATTERN', () => {
  const problemOf = (value: string) => envSchema.validate({ LEGACY_IMPORT_BASE_URL_PATTERN: value }).error?.message ?? null;

  it.each(['^https://legacy\\.example\\.com/api$', '^https://(a|b)\\.example\\.com(/api)?$', '^https://[a-z|]+\\.example\\.com$'])('accepts %s', (value) => {
    expect(problemOf(value)).toBeNull();
  });

  it.each([
    ['https://legacy\\.example\\.com$', 'must start with ^https://'],
    ['^http://legacy\\.example\\.com$', 'must start with ^https://'],
    ['^https://legacy\\.example\\.com', 'must end with $'],
    ['^https://legacy\\.example\\.com\\$', 'must end with $'],
    ['^https://a\\.example\\.com$|http://evil$', 'must not have a top-level |'],
    ['^https://(unclosed$', 'not a valid ECMAScript regular expression'],
  ])('refuses %s', (value, problem) => {
    expect(problemOf(value)).toContain(problem);
  });

  it('refuses LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK in production only', () => {
    expect(envSchema.validate({ LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK: 'true' }).error).toBeUndefined();
    expect(envSchema.validate({ NODE_ENV: 'production', LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK: 'true' }, { abortEarly: false }).error?.message).toContain(
      '"LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK" is for tests and cannot be true in production',
    );
    expect(envSchema.validate({ NODE_ENV: 'production', LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK: 'false' }, { abortEarly: false }).error?.message).not.toContain('LEGACY');
  });
});
