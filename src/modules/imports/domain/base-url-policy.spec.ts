import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { SourceFailure } from '../source/source-failure';
import { BaseUrlPolicy } from './base-url-policy';

const PATTERN = /^https:\/\/legacy\.example\.com\/api$/;

function refusal(policy: BaseUrlPolicy, raw: string): string | null {
  try {
    policy.accept(raw);
    return null;
  } catch (error) {
    return error instanceof ValidationFailedError ? `${error.fields[0]!.path} ${error.fields[0]!.rule}` : String(error);
  }
}

describe('BaseUrlPolicy', () => {
  const policy = new BaseUrlPolicy(PATTERN, false);

  it('accepts the configured address, with or without a trailing slash, in any host case', () => {
    expect(policy.accept('https://legacy.example.com/api').text).toBe('https://legacy.example.com/api');
    expect(policy.accept('https://legacy.example.com/api/').text).toBe('https://legacy.example.com/api');
  });

  it.each([
    'http://legacy.example.com/api',
    'https://legacy.example.com/api/other',
    'https://legacy.example.com.evil.test/api',
    'https://evil.test/api#https://legacy.example.com/api',
    'https://legacy.example.com@evil.test/api',
    'https://user:pw@legacy.example.com/api',
    'https://legacy.example.com/api?x=1',
    'http://127.0.0.1:8080/api',
  ])('refuses %s with body.baseUrl pattern', (raw) => {
    expect(refusal(policy, raw)).toBe('body.baseUrl pattern');
  });

  it('refuses what does not parse as a URL with format, and everything when nothing is configured', () => {
    expect(refusal(policy, 'not a url')).toBe('body.baseUrl format');
    expect(refusal(new BaseUrlPolicy(null, false), 'https://legacy.example.com/api')).toBe('body.baseUrl pattern');
  });

  it('admits loopback http only when allowed', () => {
    const tests = new BaseUrlPolicy(null, true);
    expect(tests.accept('http://127.0.0.1:4000/api').text).toBe('http://127.0.0.1:4000/api');
    expect(tests.accept('http://localhost:4000').text).toBe('http://localhost:4000');
    expect(refusal(tests, 'http://127.0.0.2:4000/api')).toBe('body.baseUrl pattern');
    expect(refusal(tests, 'http://localhost/api')).toBe('body.baseUrl pattern');
  });

  it('builds every call below the base and refuses one a source id would lead elsewhere', () => {
    const base = policy.accept('https://legacy.example.com/api');
    expect(policy.requestUrl(base, 'tenants/a%2Fb/devices?cursor=x')).toBe('https://legacy.example.com/api/tenants/a%2Fb/devices?cursor=x');
    expect(() => policy.requestUrl(base, '../other/tenants')).toThrow(SourceFailure);
    expect(() => policy.requestUrl(base, '..')).toThrow(SourceFailure);
  });
});
