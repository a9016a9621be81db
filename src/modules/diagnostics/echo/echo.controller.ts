import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../../shared/auth/principal';
import { EchoQuery } from './echo.query';
import { EchoRequest } from './echo.request.dto';
import { EchoResponse } from './echo.response.dto';

/** Design §5.15: any authenticated caller. */
@ApiTags('diagnostics')
@ApiBearerAuth()
@Controller('v1/diagnostics')
export class EchoController {
  constructor(private readonly queryBus: QueryBus) {}

  @Post('echo')
  @HttpCode(200)
  @ApiOkResponse({ type: EchoResponse })
  echo(@CurrentPrincipal() principal: Principal, @Body() body: EchoRequest): Promise<EchoResponse> {
    return this.queryBus.execute(new EchoQuery(body.message, principal.userId));
  }
}
