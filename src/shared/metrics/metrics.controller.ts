import { timingSafeEqual } from 'node:crypto';
import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PrometheusController } from '@willsoto/nestjs-prometheus';
import type { Request, Response } from 'express';
import { Public } from '../auth/public.decorator';
import { AuthenticationFailedError } from '../errors/domain-error';
import { AppConfig } from '../../config/app-config';

/** `GET /metrics`: Prometheus text; behind `Bearer <METRICS_TOKEN>` when the token is configured. */
@ApiExcludeController()
@Public()
@Controller()
export class MetricsController extends PrometheusController {
  constructor(private readonly config: AppConfig) {
    super();
  }

  @Get()
  override async index(@Res({ passthrough: true }) response: Response, @Req() request?: Request): Promise<string> {
    const expected = this.config.metricsToken;
    const header = request?.headers.authorization;
    if (expected && !bearerMatches(header, expected)) {
      throw new AuthenticationFailedError(header ? 'invalid_token' : 'missing_token', 'A valid metrics bearer token is required.');
    }
    return super.index(response);
  }
}

function bearerMatches(header: string | undefined, expected: string): boolean {
  const presented = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(expected);
  return presented.length === wanted.length && timingSafeEqual(presented, wanted);
}
