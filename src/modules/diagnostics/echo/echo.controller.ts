import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { EchoQuery } from './echo.query';
import { EchoRequest } from './echo.request.dto';
import { EchoResponse } from './echo.response.dto';

/** Design §5.15: any authenticated caller (until the identity module lands, the deny-by-default guard answers 401). */
@ApiTags('diagnostics')
@ApiBearerAuth()
@Controller('v1/diagnostics')
export class EchoController {
  constructor(private readonly queryBus: QueryBus) {}

  @Post('echo')
  @HttpCode(200)
  @ApiOkResponse({ type: EchoResponse })
  echo(@Body() body: EchoRequest): Promise<EchoResponse> {
    // The principal arrives with the identity module; until then no caller reaches this handler.
    return this.queryBus.execute(new EchoQuery(body.message, null));
  }
}
