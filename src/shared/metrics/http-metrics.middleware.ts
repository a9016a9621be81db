import { Injectable, NestMiddleware } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import type { NextFunction, Request, Response } from 'express';
import { PinoLogger } from 'nestjs-pino';
import { Counter, Histogram } from 'prom-client';
import type { Principal } from '../auth/principal';
import { correlationIdOf } from '../context/correlation-id';
import { routeTemplateOf } from '../http/route-template';

export const HTTP_REQUESTS_TOTAL = 'http_requests_total';
export const HTTP_REQUEST_DURATION = 'http_request_duration_seconds';
export const ACCESS_LOG_MESSAGE = 'request completed';

/**
 * Once a request is over (one 'close' listener): counts and times it, labelled with the route template (never the
 * raw path), and, for the API under /v1, writes its access line from the root logger: method, route, path, status,
 * duration, correlation id, client address (as TRUST_PROXY works it out) and user id. 5xx lines are `error`, 4xx
 * `warn`, the rest `info`. Probes and /metrics are polled every few seconds and stay out of the access log.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  /** The counter and histogram children of each label set seen, so a request does not hash its labels twice. */
  private readonly series = new Map<string, { requests: ReturnType<Counter<string>['labels']>; duration: ReturnType<Histogram<string>['labels']> }>();

  constructor(
    @InjectMetric(HTTP_REQUESTS_TOTAL) private readonly requests: Counter<string>,
    @InjectMetric(HTTP_REQUEST_DURATION) private readonly duration: Histogram<string>,
    private readonly logger: PinoLogger,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    const logged = req.path.startsWith('/v1/');
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeTemplateOf(req);
      const finished = res.writableFinished;
      if (finished) {
        const key = `${req.method} ${res.statusCode} ${route}`;
        let series = this.series.get(key);
        if (!series) {
          const labels = { method: req.method, route, status: String(res.statusCode) };
          series = { requests: this.requests.labels(labels), duration: this.duration.labels(labels) };
          this.series.set(key, series);
        }
        series.requests.inc();
        series.duration.observe(seconds);
      }
      if (logged) this.accessLine(req, res, route, seconds, finished);
    });
    next();
  }

  private accessLine(req: Request, res: Response, route: string, seconds: number, finished: boolean): void {
    const status = res.statusCode;
    const level = !finished || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    // The root logger itself: outside a request's store, PinoLogger answers with it.
    const root = this.logger.logger;
    if (!root.isLevelEnabled(level)) return;
    root[level](
      {
        correlationId: correlationIdOf(req),
        method: req.method,
        route,
        url: req.originalUrl,
        statusCode: status,
        responseTime: Math.round(seconds * 1e6) / 1e3,
        clientIp: req.ip,
        userId: (req as Request & { user?: Principal }).user?.userId ?? null,
      },
      finished ? ACCESS_LOG_MESSAGE : 'request aborted',
    );
  }
}
