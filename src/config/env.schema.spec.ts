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

  describe('README.md', () => {
    it.each(VARIABLES)('has a table row for %s', (variable) => {
      expect(read('README.md')).toMatch(new RegExp(`^\\|\\s*\`${escapeRegExp(variable)}\``, 'm'));
    });
  });
});
