import { Module } from '@nestjs/common';
import { EchoController } from './echo/echo.controller';
import { EchoHandler } from './echo/echo.handler';
import { GetVersionController } from './get-version/get-version.controller';
import { GetVersionHandler } from './get-version/get-version.handler';

/** One folder per use case: its route, its query and its handler (the shape every feature module copies). */
@Module({
  controllers: [GetVersionController, EchoController],
  providers: [GetVersionHandler, EchoHandler],
})
export class DiagnosticsModule {}
