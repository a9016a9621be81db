import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EchoRequest } from './dto/echo.request.dto';
import { EchoResponse } from './dto/echo.response.dto';
import { VersionResponse } from './dto/version.response.dto';
import { EchoQuery } from './queries/echo/echo.query';
import { GetVersionQuery } from './queries/get-version/get-version.query';

/** Design §5.15; any authenticated caller (until the identity module lands, the deny-by-default guard answers 401). */
@ApiTags('diagnostics')
@ApiBearerAuth()
@Controller('v1/diagnostics')
export class DiagnosticsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('version')
  @ApiOkResponse({ type: VersionResponse })
  version(): Promise<VersionResponse> {
    return this.queryBus.execute(new GetVersionQuery());
  }

  @Post('echo')
  @HttpCode(200)
  @ApiOkResponse({ type: EchoResponse })
  echo(@Body() body: EchoRequest): Promise<EchoResponse> {
    // The principal arrives with the identity module; until then no caller reaches this handler.
    return this.queryBus.execute(new EchoQuery(body.message, null));
  }
}
