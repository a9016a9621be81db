import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';
import type { CreateOrganizationUnitRequest } from '../dto/create-organization-unit.request.dto';

export class CreateOrganizationUnitCommand extends Command<OrganizationUnitResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly input: CreateOrganizationUnitRequest,
  ) {
    super();
  }
}
