import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { MembershipResponse } from '../domain/membership.response.dto';
import { GetMembershipQuery } from './get-membership.query';

@ApiTags('memberships')
@ApiBearerAuth()
@Controller('v1/memberships')
export class GetMembershipController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':membershipId')
  @RequirePermission('memberships:read')
  @ApiOkResponse({ type: MembershipResponse })
  @ApiNotFoundResponse({ description: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: `memberships:read` does not cover the grant\'s target.' })
  get(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.queryBus.execute(new GetMembershipQuery(caller.principal, membershipId));
  }
}
