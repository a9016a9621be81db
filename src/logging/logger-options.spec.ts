import { Writable } from 'node:stream';
import { CLS_ID, ClsServiceManager } from 'nestjs-cls';
import pino from 'pino';
import { AppConfig } from '../config/app-config';
import { loggerOptions, REDACTED_PATHS } from './logger-options';

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, lines: () => chunks.join('').trim().split('\n').map((line) => JSON.parse(line)) };
}

describe('logger options', () => {
  const options = loggerOptions(AppConfig.fromEnv({ NODE_ENV: 'production', METRICS_TOKEN: 'x'.repeat(16), JWT_SECRET: 'j'.repeat(32), CURSOR_SECRET: 'c'.repeat(32) }));
  const pinoHttp = options.pinoHttp as pino.LoggerOptions & { redact: { paths: string[]; censor: string } };

  it('redacts authorization headers, cookies, passwords and tokens', () => {
    const { stream, lines } = capture();
    const logger = pino({ redact: pinoHttp.redact }, stream);
    logger.info(
      {
        req: { headers: { authorization: 'Bearer abc', cookie: 'platform_refresh=xyz', accept: 'application/json' } },
        res: { headers: { 'set-cookie': 'platform_refresh=xyz' } },
        body: { username: 'ada', password: 'hunter2', newPassword: 'n', refreshToken: 'r', token: 't' },
      },
      'request',
    );
    const [line] = lines();
    const text = JSON.stringify(line);
    for (const secret of ['Bearer abc', 'xyz', 'hunter2', '"n"', '"r"', '"t"']) expect(text).not.toContain(secret);
    expect(line).toMatchObject({
      req: { headers: { authorization: '[REDACTED]', cookie: '[REDACTED]', accept: 'application/json' } },
      body: { username: 'ada', password: '[REDACTED]' },
    });
  });

  it('covers every credential-bearing header the API knows', () => {
    expect(REDACTED_PATHS).toEqual(
      expect.arrayContaining(['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]']),
    );
  });

  it('mounts no per-request logger middleware (the access line is written once per request from the root logger)', () => {
    expect(options.forRoutes).toEqual([]);
  });

  it('adds the correlation id of the request being served to every line, and nothing outside a request', () => {
    const { stream, lines } = capture();
    const logger = pino({ mixin: pinoHttp.mixin }, stream);
    const cls = ClsServiceManager.getClsService();
    cls.run(() => {
      cls.set(CLS_ID, 'corr-123');
      logger.info('inside');
    });
    logger.info('outside');
    const [inside, outside] = lines();
    expect(inside).toMatchObject({ msg: 'inside', correlationId: 'corr-123' });
    expect(outside).not.toHaveProperty('correlationId');
  });

  it('pretty-prints only in development', () => {
    expect(pinoHttp.transport).toBeUndefined();
    const development = loggerOptions(AppConfig.fromEnv({ NODE_ENV: 'development' }));
    expect((development.pinoHttp as pino.LoggerOptions).transport).toMatchObject({ target: 'pino-pretty' });
  });
});
