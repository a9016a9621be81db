import { ArgumentsHost, BadRequestException, Catch, ExceptionFilter } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { Request, Response } from 'express';
import { UnitOfWork } from '../events/unit-of-work';
import { AuthorizationFailedError, ValidationFailedError } from './domain-error';
import { isMalformedParamError, malformedParamName } from '../http/malformed-param';
import { sendError } from './error-response';
import { correlationIdOf } from '../context/correlation-id';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(
    private readonly logger: PinoLogger,
    private readonly unitOfWork: UnitOfWork,
  ) {
    logger.setContext(AllExceptionsFilter.name);
  }

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    if (exception instanceof AuthorizationFailedError && !SAFE_METHODS.has(req.method)) await this.auditDenied(exception);
    sendError(http.getResponse<Response>(), named(exception, req), correlationIdOf(req), this.logger);
  }

  /**
   * A 403 on a state-changing request is an audit event (`denied`), in the tenant's log when the
   * tenant is known, in its own transaction (the request's own, if any, has rolled back).
   */
  private async auditDenied(error: AuthorizationFailedError): Promise<void> {
    try {
      await this.unitOfWork.run((tx) =>
        tx.audit({
          eventType: 'access.denied',
          action: 'deny',
          entityType: 'access',
          tenantId: error.tenantId ?? null,
          outcome: 'denied',
          errorCode: 'AUTHORIZATION_FAILED',
          metadata: { reason: error.details?.reason, ...(error.details?.permission ? { permission: error.details.permission } : {}) },
        }),
      );
    } catch (auditError) {
      // The 403 still goes out; a lost audit row is logged, never turned into a different answer.
      this.logger.error({ err: auditError }, 'Could not audit a denied request');
    }
  }
}

/** A path segment that is not valid percent-encoding is a 400 on the parameter it was meant for. */
function named(exception: unknown, req: Request): unknown {
  if (!(exception instanceof BadRequestException) || !isMalformedParamError(exception.message)) return exception;
  const name = malformedParamName(req);
  return ValidationFailedError.single(name ? `params.${name}` : 'path', 'format', 'The path segment is not valid percent-encoding.');
}
