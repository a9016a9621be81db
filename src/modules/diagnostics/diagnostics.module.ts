import { Module } from '@nestjs/common';
import { HealthModule } from '../../health/health.module';
import { SandboxModule } from '../sandbox';
import { DiagnosticsController } from './diagnostics.controller';
import { EchoHandler } from './echo/echo.handler';
import { GetReadinessHandler } from './get-readiness/get-readiness.handler';
import { GetVersionHandler } from './get-version/get-version.handler';

/** One controller for the module's routes; one folder per use case for its query and handler (the shape every feature module copies). */
@Module({
  imports: [HealthModule, SandboxModule],
  controllers: [DiagnosticsController],
  providers: [GetVersionHandler, EchoHandler, GetReadinessHandler],
})
export class DiagnosticsModule {}
