import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { MembershipResponse } from '../domain/membership.response.dto';
import { CreateMembershipCommand } from './create-membership.command';
import { CreateMembershipRequest } from './create-membership.request.dto';

@ApiTags('memberships')
@ApiBearerAuth()
@Controller('v1/tenants/:tenantNumber/memberships')
export class CreateMembershipController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @RequirePermission('memberships:write')
  @ApiCreatedResponse({ type: MembershipResponse, description: '`Location: /v1/memberships/{membershipId}`.' })
  @ApiNotFoundResponse({ description: 'No visible tenant with this number (`resourceType` `tenant`).' })
  @ApiForbiddenResponse({
    description: '`missing_permission`: the caller does not hold `memberships:write` over the target (tenant-level grants and grants with descendants: over the whole subtree).',
  })
  @ApiConflictResponse({ description: '`duplicate_membership`: the user already has an active grant on this target.' })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateMembershipRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MembershipResponse> {
    if (body.userId === undefined && body.userEmail === undefined) {
      throw ValidationFailedError.single('body.userId', 'required', 'Send exactly one of userId and userEmail.');
    }
    if (body.userId !== undefined && body.userEmail !== undefined) {
      throw ValidationFailedError.single('body.userEmail', 'mismatch', 'Send exactly one of userId and userEmail, not both.');
    }
    const membership = await this.commandBus.execute(new CreateMembershipCommand(caller.principal, tenantNumber, body));
    res.location(`/v1/memberships/${membership.membershipId}`);
    return membership;
  }
}
