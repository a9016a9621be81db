import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { RequestContext } from './request-context';

/**
 * Records the status the route answers on success in the request context, before its handler runs, so audit
 * rows written in the handler's transaction carry the response's status without the handler naming it.
 */
@Injectable()
export class SuccessStatusInterceptor implements NestInterceptor {
  constructor(private readonly context: RequestContext) {}

  intercept(execution: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (execution.getType() === 'http') {
      const declared = Reflect.getMetadata(HTTP_CODE_METADATA, execution.getHandler()) as number | undefined;
      const method = execution.switchToHttp().getRequest<Request>().method;
      this.context.setSuccessStatus(declared ?? (method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK));
    }
    return next.handle();
  }
}
