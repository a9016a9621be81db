import { Global, Module } from '@nestjs/common';
import { ShutdownState } from '../lifecycle/shutdown-state';
import { AuditWriter } from './audit/audit-writer';
import { RequestContext } from './context/request-context';
import { UnitOfWork } from './events/unit-of-work';

/** Cross-cutting providers every feature module may inject without importing anything. */
@Global()
@Module({
  providers: [RequestContext, AuditWriter, UnitOfWork, ShutdownState],
  exports: [RequestContext, AuditWriter, UnitOfWork, ShutdownState],
})
export class CoreModule {}
