import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  InternalServerErrorException,
  MethodNotAllowedException,
  NotFoundException,
  PayloadTooLargeException,
  UnauthorizedException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { classifyError, isDatabaseUnavailable } from './classify-error';
import { ConflictError, DomainError } from './domain-error';

const SQL = 'SELECT "device"."secret_column" FROM "device" WHERE "device"."tenant_id" = $1';

/** An error as node-postgres raises it: the driver's text plus a SQLSTATE or socket code. */
function driverError(code: string, message: string): Error & { code: string } {
  return Object.assign(new Error(message), { code });
}

/** The same error as TypeORM rethrows it from a query, carrying the SQL and its parameters. */
function queryFailed(code: string, message: string): QueryFailedError {
  return new QueryFailedError(SQL, ['3f1c0a52-7d0e-4c53-9a43-0f3c1b1d2e3f', 'hunter2'], driverError(code, message));
}

/** What body-parser (express.json) passes to the error handler. */
function bodyParserError(type: string, status: number, message = 'Unexpected token } in JSON at position 12'): Error {
  return Object.assign(new Error(message), { type, status, expose: true });
}

/** Everything a client would see of a classified error. */
function clientView(error: DomainError | null): string {
  return JSON.stringify({ message: error?.message, details: error?.details, headers: error?.headers });
}

describe('classifyError', () => {
  it('passes a DomainError through unchanged', () => {
    const conflict = new ConflictError('duplicate', 'The device already exists.');
    expect(classifyError(conflict)).toBe(conflict);
  });

  describe('body-parser failures', () => {
    it.each([
      ['entity.parse.failed', 400, 'body', 'json'],
      ['entity.too.large', 413, 'body', 'body_too_large'],
      ['encoding.unsupported', 415, 'headers.content-type', 'content_type'],
      ['charset.unsupported', 415, 'headers.content-type', 'content_type'],
      ['request.aborted', 400, 'body', 'json'],
      ['request.size.invalid', 400, 'body', 'json'],
      ['stream.encoding.set', 500, 'body', 'json'],
    ])('reports %s as a validation failure at %s', (type, status, path, rule) => {
      const classified = classifyError(bodyParserError(type, status));
      expect(classified?.code).toBe('VALIDATION_FAILED');
      expect(classified?.details).toEqual({ fields: [{ path, rule, message: expect.any(String) }] });
    });

    it("never repeats the parser's own message", () => {
      const classified = classifyError(bodyParserError('entity.parse.failed', 400));
      expect(clientView(classified)).not.toContain('Unexpected token');
    });

    it('leaves an unrecognised body-parser type unclassified', () => {
      expect(classifyError(bodyParserError('entity.verify.failed', 403))).toBeNull();
    });
  });

  describe('framework HTTP exceptions', () => {
    it.each([
      ['404', new NotFoundException('Cannot GET /v1/nope')],
      ['405', new MethodNotAllowedException()],
    ])('reports %s as a missing route', (_status, exception) => {
      const classified = classifyError(exception);
      expect(classified?.code).toBe('RESOURCE_NOT_FOUND');
      expect(classified?.details).toEqual({ resourceType: 'route' });
      expect(clientView(classified)).not.toContain('Cannot GET');
    });

    it('reports 413 as a body over the size limit', () => {
      expect(classifyError(new PayloadTooLargeException())?.details).toEqual({
        fields: [{ path: 'body', rule: 'body_too_large', message: expect.any(String) }],
      });
    });

    it('reports 401 as an invalid bearer token with its challenge', () => {
      const classified = classifyError(new UnauthorizedException());
      expect(classified?.code).toBe('AUTHENTICATION_FAILED');
      expect(classified?.details).toEqual({ reason: 'invalid_token' });
      expect(classified?.headers).toEqual({ 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    });

    it("reports 400 as a malformed request without the framework's text", () => {
      const classified = classifyError(new BadRequestException('Validation failed (uuid is expected)'));
      expect(classified?.code).toBe('VALIDATION_FAILED');
      expect(classified?.details).toEqual({
        fields: [{ path: 'request', rule: 'format', message: 'The request is malformed.' }],
      });
      expect(clientView(classified)).not.toContain('uuid is expected');
    });

    it('reports 429 as rate limited, retrying after a minute', () => {
      const classified = classifyError(new HttpException('slow down', HttpStatus.TOO_MANY_REQUESTS));
      expect(classified?.code).toBe('RATE_LIMITED');
      expect(classified?.headers).toEqual({ 'Retry-After': '60' });
    });

    it.each([
      ['403', new ForbiddenException()],
      ['500', new InternalServerErrorException()],
      ['418', new HttpException('teapot', HttpStatus.I_AM_A_TEAPOT)],
    ])('leaves %s unclassified', (_status, exception) => {
      expect(classifyError(exception)).toBeNull();
    });
  });

  describe('database unavailable', () => {
    const unavailable: [string, unknown][] = [
      ['a refused connection', driverError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
      ['a reset connection', driverError('ECONNRESET', 'read ECONNRESET')],
      ['an unknown host', driverError('ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal')],
      ['an administrator shutdown (57P01)', queryFailed('57P01', 'terminating connection due to administrator command')],
      ['a crash shutdown (57P02)', queryFailed('57P02', 'terminating connection because of crash of another server process')],
      ['a server still starting (57P03)', queryFailed('57P03', 'the database system is starting up')],
      ['too many connections (53300)', driverError('53300', 'sorry, too many clients already')],
      ['a connection failure (08006)', queryFailed('08006', 'connection failure')],
      ['any connection exception class 08', driverError('08001', 'could not establish connection')],
      ['a terminated connection', new Error('Connection terminated unexpectedly')],
      ['a connect timeout', new Error('timeout exceeded when trying to connect')],
      ['a closed pool', new Error('Cannot use a pool after calling end on the pool')],
      ['a refusal on every address', new AggregateError([driverError('ECONNREFUSED', 'connect ECONNREFUSED ::1:5432')], '')],
      ['a refusal given as the cause', new Error('Driver failed', { cause: driverError('ECONNREFUSED', 'refused') })],
    ];

    it.each(unavailable)('reports %s as the database being unavailable', (_case, error) => {
      const classified = classifyError(error);
      expect(classified?.code).toBe('DEPENDENCY_FAILURE');
      expect(classified?.details).toEqual({ dependency: 'database', reason: 'unavailable' });
      expect(classified?.headers).toEqual({ 'Retry-After': '5' });
      expect(classified?.statusOverride).toBeUndefined();
    });

    it.each(unavailable)('says nothing of the driver or the SQL for %s', (_case, error) => {
      const view = clientView(classifyError(error));
      for (const leak of ['SELECT', 'secret_column', 'hunter2', 'ECONNREFUSED', '127.0.0.1', 'terminating', 'connection failure']) {
        expect(view).not.toContain(leak);
      }
    });

    it('follows a wrapped cause only a few levels deep', () => {
      let wrapped: Error = driverError('ECONNREFUSED', 'refused');
      for (let level = 0; level < 3; level++) wrapped = new Error(`level ${level}`, { cause: wrapped });
      expect(isDatabaseUnavailable(wrapped)).toBe(true);
      expect(isDatabaseUnavailable(new Error('level 3', { cause: wrapped }))).toBe(false);
    });
  });

  describe('statement timeout', () => {
    it('reports a cancelled statement (57014) as a database timeout without the SQL', () => {
      const classified = classifyError(queryFailed('57014', 'canceling statement due to statement timeout'));
      expect(classified?.code).toBe('DEPENDENCY_FAILURE');
      expect(classified?.details).toEqual({ dependency: 'database', reason: 'timeout' });
      expect(classified?.headers).toEqual({ 'Retry-After': '5' });
      const view = clientView(classified);
      expect(view).not.toContain('SELECT');
      expect(view).not.toContain('canceling statement');
    });
  });

  describe('anything else', () => {
    it.each([
      ['a unique violation', queryFailed('23505', 'duplicate key value violates unique constraint "device_pkey"')],
      ['a missing table', queryFailed('42P01', 'relation "device" does not exist')],
      ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
      ['a thrown string', 'boom'],
      ['a thrown number', 42],
      ['a plain object', { message: 'odd' }],
    ])('leaves %s unclassified, for the caller to answer INTERNAL_ERROR', (_case, error) => {
      expect(classifyError(error)).toBeNull();
    });
  });
});
