import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { Request, Response } from 'express';
import { sendError } from './error-response';
import { correlationIdOf } from '../context/correlation-id';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly logger: PinoLogger) {
    logger.setContext(AllExceptionsFilter.name);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    sendError(http.getResponse<Response>(), exception, correlationIdOf(req), this.logger);
  }
}
