import { Global, Module } from '@nestjs/common';
import { ClsService, ClsServiceManager } from 'nestjs-cls';
import { ShutdownState } from './lifecycle/shutdown-state';
import { AccessService } from './access/access.service';
import { AuthCache } from './auth/auth-cache';
import { AuditWriter } from './audit/audit-writer';
import { RequestContext } from './context/request-context';
import { UnitOfWork } from './events/unit-of-work';

/**
 * Cross-cutting providers every feature module may inject without importing anything.
 *
 * The request context is nestjs-cls's process-wide ClsService, entered by requestStartMiddleware, which
 * configureApp mounts. ClsModule.forRoot is deliberately not imported: it always registers a global guard and interceptor
 * (no-ops for an HTTP app whose context is set up by the middleware), and an interceptor costs every request
 * an RxJS pipeline and an AsyncResource binding, about a fifth of the throughput of a cheap route.
 */
@Global()
@Module({
  providers: [
    { provide: ClsService, useFactory: () => ClsServiceManager.getClsService() },
    RequestContext,
    AuditWriter,
    UnitOfWork,
    ShutdownState,
    AccessService,
    AuthCache,
  ],
  exports: [ClsService, RequestContext, AuditWriter, UnitOfWork, ShutdownState, AccessService, AuthCache],
})
export class CoreModule {}
