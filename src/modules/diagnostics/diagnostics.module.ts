import { Module } from '@nestjs/common';
import { DiagnosticsController } from './diagnostics.controller';
import { EchoHandler } from './queries/echo/echo.handler';
import { GetVersionHandler } from './queries/get-version/get-version.handler';

@Module({
  controllers: [DiagnosticsController],
  providers: [GetVersionHandler, EchoHandler],
})
export class DiagnosticsModule {}
