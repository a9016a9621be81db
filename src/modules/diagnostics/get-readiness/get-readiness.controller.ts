import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PlatformAdminOnly } from '../../../shared/auth/principal';
import { GetReadinessQuery } from './get-readiness.query';
import { ReadinessResponse } from './readiness.response.dto';

/** Platform admins only: the state of every dependency, always 200 (the public probe is `/readyz`). */
@ApiTags('diagnostics')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/diagnostics')
export class GetReadinessController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('readiness')
  @ApiOkResponse({ type: ReadinessResponse })
  @ApiForbiddenResponse({ description: '`platform_admin_required`' })
  readiness(): Promise<ReadinessResponse> {
    return this.queryBus.execute(new GetReadinessQuery());
  }
}
