import { createHmac } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { ValidationFailedError } from '../errors/domain-error';
import { CursorBinding, CursorCodec, MAX_CURSOR_LENGTH } from './cursor-codec';

const SECRET = 'a-cursor-secret-of-at-least-32-characters';
const codecWith = (secret = SECRET) => new CursorCodec(AppConfig.fromEnv({}, { cursorSecret: secret }));

const BINDING: CursorBinding = {
  actorId: '7b0f1a52-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
  scope: 'users',
  filters: { status: 'active', q: null },
  limit: 25,
};
const POSITION = ['2026-01-02T03:04:05.123456Z', 'f0e1d2c3-b4a5-4968-8776-655443322110'] as const;

/** The rule of the single violation `work` throws. */
function ruleOf(work: () => unknown): string | undefined {
  try {
    work();
  } catch (error) {
    if (!(error instanceof ValidationFailedError)) throw error;
    expect(error.fields).toHaveLength(1);
    expect(error.fields[0]?.path).toBe('query.cursor');
    return error.fields[0]?.rule;
  }
  throw new Error('expected a validation error');
}

describe('CursorCodec', () => {
  const codec = codecWith();

  it('gives the position back for the same binding', () => {
    const cursor = codec.encode(BINDING, POSITION);
    expect(codec.decode(cursor, { ...BINDING })).toEqual([...POSITION]);
  });

  it('writes an opaque base64url token without the filter values', () => {
    const cursor = codec.encode({ ...BINDING, filters: { q: 'needle-in-the-haystack' } }, POSITION);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(cursor, 'base64url').toString('latin1')).not.toContain('needle');
  });

  it('stays within 512 characters however long the filters are', () => {
    const cursor = codec.encode({ ...BINDING, filters: { q: '\u{1F600}'.repeat(100), other: 'x'.repeat(5000) } }, POSITION);
    expect(cursor.length).toBeLessThanOrEqual(MAX_CURSOR_LENGTH);
  });

  it('does not depend on the order the filters are listed in, and reads an omitted filter as null', () => {
    const cursor = codec.encode({ ...BINDING, filters: { q: null, status: 'active' } }, POSITION);
    expect(codec.decode(cursor, { ...BINDING, filters: { status: 'active', q: undefined } })).toEqual([...POSITION]);
  });

  it.each<[string, Partial<CursorBinding>]>([
    ['another actor', { actorId: '00000000-0000-4000-8000-000000000000' }],
    ['another scope', { scope: 'users/1/memberships' }],
    ['another filter value', { filters: { status: 'disabled', q: null } }],
    ['a filter added', { filters: { status: 'active', q: 'ann' } }],
    ['an empty string for an omitted filter', { filters: { status: 'active', q: '' } }],
    ['another limit', { limit: 50 }],
  ])('reports cursor_mismatch for %s', (_case, change) => {
    const cursor = codec.encode(BINDING, POSITION);
    expect(ruleOf(() => codec.decode(cursor, { ...BINDING, ...change }))).toBe('cursor_mismatch');
  });

  it('reports cursor_invalid for a cursor signed with another secret', () => {
    const foreign = codecWith('another-secret-of-at-least-32-characters!').encode(BINDING, POSITION);
    expect(ruleOf(() => codec.decode(foreign, BINDING))).toBe('cursor_invalid');
  });

  it('reports cursor_invalid for any single changed character', () => {
    const cursor = codec.encode(BINDING, POSITION);
    for (let index = 0; index < cursor.length; index += 7) {
      const replacement = cursor[index] === 'A' ? 'B' : 'A';
      const tampered = `${cursor.slice(0, index)}${replacement}${cursor.slice(index + 1)}`;
      expect(ruleOf(() => codec.decode(tampered, BINDING))).toBe('cursor_invalid');
    }
  });

  it('reports cursor_invalid for a payload re-signed nowhere but edited in place', () => {
    const raw = Buffer.from(codec.encode(BINDING, POSITION), 'base64url');
    const edited = Buffer.from(raw.toString('latin1').replace('2026', '2027'), 'latin1').toString('base64url');
    expect(ruleOf(() => codec.decode(edited, BINDING))).toBe('cursor_invalid');
  });

  it.each([
    ['garbage', 'not a cursor!'],
    ['too short', 'abc'],
    ['padding', `${'A'.repeat(60)}==`],
    ['too long', 'A'.repeat(MAX_CURSOR_LENGTH + 1)],
    ['an empty string', ''],
  ])('reports cursor_invalid for %s', (_case, cursor) => {
    expect(ruleOf(() => codec.decode(cursor, BINDING))).toBe('cursor_invalid');
  });

  it('reports cursor_invalid for a correctly signed body that is not a cursor payload', () => {
    // Only a holder of the secret reaches the payload checks: sign arbitrary bodies the way the codec does.
    const sign = (json: string) => {
      const body = Buffer.from(json, 'utf8');
      const mac = createHmac('sha256', SECRET).update('cursor\0').update(body).digest();
      return Buffer.concat([mac, body]).toString('base64url');
    };
    expect(ruleOf(() => codec.decode(sign('{"v":2,"b":"x","p":[]}'), BINDING))).toBe('cursor_invalid');
    expect(ruleOf(() => codec.decode(sign('{"v":1,"b":"x","p":[{}]}'), BINDING))).toBe('cursor_invalid');
    expect(ruleOf(() => codec.decode(sign('not json'), BINDING))).toBe('cursor_invalid');
  });
});
