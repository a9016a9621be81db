import { Module } from '@nestjs/common';
import { SandboxModule } from '../../sandbox';
import { FlowEngine } from './flow-engine';

/** The flow execution engine (no routes): inject FlowEngine to compile, cache and execute flow versions. */
@Module({
  imports: [SandboxModule],
  providers: [FlowEngine],
  exports: [FlowEngine],
})
export class FlowEngineModule {}
