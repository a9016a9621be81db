import { Module } from '@nestjs/common';
import { makeCounterProvider, makeHistogramProvider, PrometheusModule } from '@willsoto/nestjs-prometheus';
import { register } from 'prom-client';
import { HttpMetricsMiddleware, HTTP_REQUEST_DURATION, HTTP_REQUESTS_TOTAL } from '../metrics/http-metrics.middleware';
import { MetricsController } from '../metrics/metrics.controller';
import { JsonBodyMiddleware } from './json-body.middleware';

/**
 * Request-level plumbing that must run before routing: metrics timing, then JSON-only body parsing (its failures
 * surface after authentication, through the global RequestInputGuard). The
 * middlewares are providers (they need injected metrics and logger) that `configureApp` mounts with `app.use`,
 * ahead of Nest's router: one function call each instead of a wildcard route per middleware.
 */
@Module({
  imports: [
    PrometheusModule.register({
      controller: MetricsController,
      path: '/metrics',
      // Default metrics are process-wide; a second app in the same process (tests) must not register them twice.
      defaultMetrics: { enabled: !register.getSingleMetric('process_cpu_user_seconds_total') },
    }),
  ],
  providers: [
    HttpMetricsMiddleware,
    JsonBodyMiddleware,
    makeCounterProvider({
      name: HTTP_REQUESTS_TOTAL,
      help: 'HTTP requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
    }),
    makeHistogramProvider({
      name: HTTP_REQUEST_DURATION,
      help: 'HTTP request duration in seconds by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    }),
  ],
  exports: [HttpMetricsMiddleware, JsonBodyMiddleware],
})
export class HttpPipelineModule {}
