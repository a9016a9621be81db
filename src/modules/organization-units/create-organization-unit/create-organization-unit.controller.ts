import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { OrganizationUnitResponse } from '../domain/organization-unit.response.dto';
import { CreateOrganizationUnitCommand } from './create-organization-unit.command';
import { CreateOrganizationUnitRequest } from './create-organization-unit.request.dto';

@ApiTags('organization-units')
@ApiBearerAuth()
@Controller('v1/tenants')
export class CreateOrganizationUnitController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':tenantNumber/organization-units')
  @RequirePermission('organization-units:write')
  @ApiCreatedResponse({
    type: OrganizationUnitResponse,
    description:
      '`Location: /v1/organization-units/{organizationUnitId}`. A root needs the permission over the whole tenant; a child, a grant ' +
      'with descendants on the parent or above. An unknown or invisible parent is 400 `body.parentOrganizationUnitId` `reference_not_found`.',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiConflictResponse({ description: '`duplicate_key` (per tenant), `parent_disabled`, `max_depth` (16 levels).' })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateOrganizationUnitRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OrganizationUnitResponse> {
    const unit = await this.commandBus.execute(new CreateOrganizationUnitCommand(caller, tenantNumber, body));
    res.location(`/v1/organization-units/${unit.organizationUnitId}`);
    return unit;
  }
}
