import { Body, Controller, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { MembershipResponse } from '../domain/membership.response.dto';
import { UpdateMembershipCommand } from './update-membership.command';
import { UpdateMembershipRequest } from './update-membership.request.dto';

@ApiTags('memberships')
@ApiBearerAuth()
@Controller('v1/memberships')
export class UpdateMembershipController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch(':membershipId')
  @RequirePermission('memberships:write')
  @ApiOkResponse({ type: MembershipResponse, description: 'Values equal to the current ones are not a change.' })
  @ApiNotFoundResponse({ description: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: `memberships:write` does not cover the grant before and after the change.' })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('membershipId') membershipId: string,
    @Body() body: UpdateMembershipRequest,
  ): Promise<MembershipResponse> {
    return this.commandBus.execute(new UpdateMembershipCommand(caller.principal, membershipId, { ...body }));
  }
}
