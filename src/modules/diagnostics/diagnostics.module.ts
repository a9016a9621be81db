import { Module } from '@nestjs/common';
import { DiagnosticsController } from './diagnostics.controller';
import { EchoHandler } from './echo/echo.handler';
import { GetVersionHandler } from './get-version/get-version.handler';

/** One controller for the module's routes; one folder per use case for its query and handler (the shape every feature module copies). */
@Module({
  controllers: [DiagnosticsController],
  providers: [GetVersionHandler, EchoHandler],
})
export class DiagnosticsModule {}
