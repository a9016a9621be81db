import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { RequestContext } from './request-context';

/**
 * Records the status the route answers on success in the request context, before its handler runs, so audit
 * rows written in the handler's transaction carry the response's status without the handler naming it. Runs first
 * among the global guards (it never refuses), so a 401/403 path has it too. A guard rather than an interceptor:
 * with no global interceptor, Nest calls the handler without building an RxJS pipeline per request.
 */
@Injectable()
export class SuccessStatusGuard implements CanActivate {
  constructor(private readonly context: RequestContext) {}

  canActivate(execution: ExecutionContext): boolean {
    if (execution.getType() === 'http') {
      const declared = Reflect.getMetadata(HTTP_CODE_METADATA, execution.getHandler()) as number | undefined;
      const method = execution.switchToHttp().getRequest<Request>().method;
      this.context.setSuccessStatus(declared ?? (method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK));
    }
    return true;
  }
}
