import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { GetVersionQuery } from './get-version.query';
import { VersionResponse } from './version.response.dto';

/** Design §5.15: any authenticated caller. */
@ApiTags('diagnostics')
@ApiBearerAuth()
@Controller('v1/diagnostics')
export class GetVersionController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('version')
  @ApiOkResponse({ type: VersionResponse })
  version(): Promise<VersionResponse> {
    return this.queryBus.execute(new GetVersionQuery());
  }
}
