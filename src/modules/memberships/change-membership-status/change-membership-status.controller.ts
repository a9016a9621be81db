import { Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { MembershipResponse } from '../domain/membership.response.dto';
import { ChangeMembershipStatusCommand } from './change-membership-status.command';

@ApiTags('memberships')
@ApiBearerAuth()
@ApiNotFoundResponse({ description: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).' })
@ApiForbiddenResponse({ description: '`missing_permission`: `memberships:write` does not cover the grant.' })
@Controller('v1/memberships')
export class ChangeMembershipStatusController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':membershipId/disable')
  @HttpCode(200)
  @RequirePermission('memberships:write')
  @ApiOkResponse({ type: MembershipResponse, description: 'The grant stops counting from the next request on.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already disabled.' })
  disable(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.commandBus.execute(new ChangeMembershipStatusCommand(caller.principal, membershipId, 'disabled'));
  }

  @Post(':membershipId/reactivate')
  @HttpCode(200)
  @RequirePermission('memberships:write')
  @ApiOkResponse({ type: MembershipResponse })
  @ApiConflictResponse({
    description: '`invalid_state` (+`currentStatus`): already active; `duplicate_membership`: the user has another active grant on the target.',
  })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.commandBus.execute(new ChangeMembershipStatusCommand(caller.principal, membershipId, 'active'));
  }
}
