import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { FieldViolation } from '../../../shared/errors/error-codes';
import { toFieldViolations } from '../../../shared/validation/validation-rules';
import { CreateUserRequest } from './create-user.request.dto';
import { UpdateUserRequest } from './update-user.request.dto';

const VALID = {
  username: 'ann.smith',
  email: 'ann@example.com',
  displayName: 'Ann Smith',
  temporaryPassword: 'a-temporary-password',
};

async function violationsOf(dto: new () => object, body: Record<string, unknown>): Promise<FieldViolation[]> {
  const errors = await validate(plainToInstance(dto, body), {
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
  });
  return toFieldViolations(errors, 'body');
}

const ruleFor = async (dto: new () => object, body: Record<string, unknown>) => {
  const violations = await violationsOf(dto, body);
  expect(violations).toHaveLength(1);
  return { path: violations[0]?.path, rule: violations[0]?.rule };
};

describe('CreateUserRequest', () => {
  it('accepts a complete request, with or without metadata', async () => {
    await expect(violationsOf(CreateUserRequest, VALID)).resolves.toEqual([]);
    await expect(violationsOf(CreateUserRequest, { ...VALID, metadata: { team: 'ops' } })).resolves.toEqual([]);
  });

  it('requires username, email, displayName and temporaryPassword', async () => {
    const violations = await violationsOf(CreateUserRequest, {});
    expect(violations.map(({ path, rule }) => [path, rule])).toEqual([
      ['body.username', 'required'],
      ['body.email', 'required'],
      ['body.displayName', 'required'],
      ['body.temporaryPassword', 'required'],
    ]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a username with a space', { username: 'ann smith' }, 'body.username', 'pattern'],
    ['a username starting with a dot', { username: '.ann' }, 'body.username', 'pattern'],
    ['a two-character username', { username: 'ab' }, 'body.username', 'min_length'],
    ['a 65-character username', { username: 'a'.repeat(65) }, 'body.username', 'max_length'],
    ['a numeric username', { username: 12345 }, 'body.username', 'type'],
    ['a malformed e-mail', { email: 'not-an-email' }, 'body.email', 'format'],
    ['an e-mail over 254 characters', { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com` }, 'body.email', 'max_length'],
    ['a blank displayName', { displayName: '   ' }, 'body.displayName', 'blank'],
    ['an empty displayName', { displayName: '' }, 'body.displayName', 'blank'],
    ['a 201-character displayName', { displayName: 'x'.repeat(201) }, 'body.displayName', 'max_length'],
    ['an 11-character password', { temporaryPassword: 'x'.repeat(11) }, 'body.temporaryPassword', 'password_policy'],
    ['a 129-character password', { temporaryPassword: 'x'.repeat(129) }, 'body.temporaryPassword', 'password_policy'],
    ['a non-string password', { temporaryPassword: 123456789012 }, 'body.temporaryPassword', 'type'],
    ['metadata that is an array', { metadata: ['a'] }, 'body.metadata', 'type'],
    ['metadata with a number value', { metadata: { a: 1 } }, 'body.metadata', 'type'],
    ['metadata with 51 properties', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'body.metadata', 'max_properties'],
    ['an empty metadata name', { metadata: { team: 'ops', '': 'y' } }, 'body.metadata', 'min_length'],
    ['a metadata name over 64 characters', { metadata: { ['k'.repeat(65)]: 'v' } }, 'body.metadata', 'max_length'],
    ['a metadata value over 1024 characters', { metadata: { k: 'v'.repeat(1025) } }, 'body.metadata', 'max_length'],
    ['an unknown property', { role: 'admin' }, 'body.role', 'unknown_property'],
  ])('reports %s', async (_case, change, path, rule) => {
    await expect(ruleFor(CreateUserRequest, { ...VALID, ...change })).resolves.toEqual({ path, rule });
  });

  it('accepts the limits themselves', async () => {
    await expect(
      violationsOf(CreateUserRequest, {
        ...VALID,
        username: `a${'b'.repeat(63)}`,
        displayName: 'x'.repeat(200),
        temporaryPassword: 'x'.repeat(128),
        metadata: { ...Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`k${i}`, ''])), ['k'.repeat(64)]: 'v'.repeat(1024) },
      }),
    ).resolves.toEqual([]);
  });
});

describe('UpdateUserRequest', () => {
  it('accepts any single property and refuses an empty object with min_properties at body', async () => {
    await expect(violationsOf(UpdateUserRequest, {})).resolves.toEqual([
      { path: 'body', rule: 'min_properties', message: 'Send at least one property to change.' },
    ]);
    await expect(violationsOf(UpdateUserRequest, { '': 'x', displayName: 'X' })).resolves.toEqual([
      { path: 'body', rule: 'unknown_property', message: 'This property is not allowed.' },
    ]);
    for (const body of [{ username: 'new-name' }, { email: 'x@example.com' }, { displayName: 'X' }, { status: 'disabled' }, { metadata: {} }]) {
      await expect(violationsOf(UpdateUserRequest, body)).resolves.toEqual([]);
    }
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['an unknown status', { status: 'retired' }, 'body.status', 'enum'],
    ['a null displayName', { displayName: null }, 'body.displayName', 'required'],
    ['a blank displayName', { displayName: ' ' }, 'body.displayName', 'blank'],
    ['a bad username', { username: 'a b' }, 'body.username', 'pattern'],
    ['too much metadata', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 'body.metadata', 'max_properties'],
    ['a password', { temporaryPassword: 'a-temporary-password' }, 'body.temporaryPassword', 'unknown_property'],
  ])('reports %s', async (_case, body, path, rule) => {
    await expect(ruleFor(UpdateUserRequest, body)).resolves.toEqual({ path, rule });
  });
});
