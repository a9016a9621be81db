import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { CurrentValuesResponse } from './current-values.response.dto';
import { GetCurrentValuesQuery } from './get-current-values.query';

@ApiTags('telemetry')
@ApiBearerAuth()
@Controller('v1/devices')
export class GetCurrentValuesController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceId/current-values')
  @RequirePermission('telemetry:read')
  @ApiOkResponse({ type: CurrentValuesResponse })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `device`).' })
  get(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<CurrentValuesResponse> {
    return this.queryBus.execute(new GetCurrentValuesQuery(caller, deviceId));
  }
}
