import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../shared/auth/principal';
import { EchoQuery } from './echo/echo.query';
import { EchoRequest } from './dto/echo.request.dto';
import { EchoResponse } from './dto/echo.response.dto';
import { GetReadinessQuery } from './get-readiness/get-readiness.query';
import { ReadinessResponse } from './dto/readiness.response.dto';
import { GetVersionQuery } from './get-version/get-version.query';
import { VersionResponse } from './dto/version.response.dto';

/** Version and echo: any authenticated caller; readiness detail: platform admins only. */
@ApiTags('diagnostics')
@ApiBearerAuth()
@Controller('v1/diagnostics')
export class DiagnosticsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('version')
  @OperationId('GetVersionController_version')
  @ApiOkResponse({ type: VersionResponse })
  version(): Promise<VersionResponse> {
    return this.queryBus.execute(new GetVersionQuery());
  }

  @Post('echo')
  @OperationId('EchoController_echo')
  @HttpCode(200)
  @ApiOkResponse({ type: EchoResponse })
  echo(@CurrentPrincipal() principal: Principal, @Body() body: EchoRequest): Promise<EchoResponse> {
    return this.queryBus.execute(new EchoQuery(body.message, principal.userId));
  }

  /** The state of every dependency, always 200 (the public probe is `/readyz`). */
  @Get('readiness')
  @OperationId('GetReadinessController_readiness')
  @PlatformAdminOnly()
  @ApiOkResponse({ type: ReadinessResponse })
  @ApiForbiddenResponse({ description: '`platform_admin_required`' })
  readiness(): Promise<ReadinessResponse> {
    return this.queryBus.execute(new GetReadinessQuery());
  }
}
