import { Body, Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { EchoQuery } from './echo/echo.query';
import { EchoRequest } from './dto/echo.request.dto';
import { EchoResponse } from './dto/echo.response.dto';
import { GetReadinessQuery } from './get-readiness/get-readiness.query';
import { ReadinessResponse } from './dto/readiness.response.dto';
import { GetVersionQuery } from './get-version/get-version.query';
import { VersionResponse } from './dto/version.response.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { DIAGNOSTICS_DOCS } from './diagnostics.docs';
import { DIAGNOSTICS_SCHEMA_EXAMPLES } from './diagnostics.examples';
import { Route } from '../../shared/http/routes';

/** Version and echo: any authenticated caller; readiness detail: platform admins only. */
@ApiTags('diagnostics')
@ApiBearerAuth()
@ApiDocs(DIAGNOSTICS_DOCS, { schemas: DIAGNOSTICS_SCHEMA_EXAMPLES })
@Controller('v1/diagnostics')
export class DiagnosticsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Route('get', 'version', { operationId: 'diagnostics_version', type: VersionResponse })
  version(): Promise<VersionResponse> {
    return this.queryBus.execute(new GetVersionQuery());
  }

  @Route('post', 'echo', { operationId: 'diagnostics_echo', status: 200, type: EchoResponse })
  echo(@CurrentPrincipal() principal: Principal, @Body() body: EchoRequest): Promise<EchoResponse> {
    return this.queryBus.execute(new EchoQuery(body.message, principal.userId));
  }

  /** The state of every dependency, always 200 (the public probe is `/readyz`). */
  @Route('get', 'readiness', {
    operationId: 'diagnostics_readiness',
    platformAdminOnly: true,
    type: ReadinessResponse,
    forbidden: '`platform_admin_required`',
  })
  readiness(): Promise<ReadinessResponse> {
    return this.queryBus.execute(new GetReadinessQuery());
  }
}
