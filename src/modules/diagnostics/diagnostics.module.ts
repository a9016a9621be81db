import { Module } from '@nestjs/common';
import { HealthModule } from '../../health/health.module';
import { SandboxModule } from '../sandbox/sandbox.module';
import { EchoController } from './echo/echo.controller';
import { EchoHandler } from './echo/echo.handler';
import { GetReadinessController } from './get-readiness/get-readiness.controller';
import { GetReadinessHandler } from './get-readiness/get-readiness.handler';
import { GetVersionController } from './get-version/get-version.controller';
import { GetVersionHandler } from './get-version/get-version.handler';

/** One folder per use case: its route, its query and its handler (the shape every feature module copies). */
@Module({
  imports: [HealthModule, SandboxModule],
  controllers: [GetVersionController, EchoController, GetReadinessController],
  providers: [GetVersionHandler, EchoHandler, GetReadinessHandler],
})
export class DiagnosticsModule {}
