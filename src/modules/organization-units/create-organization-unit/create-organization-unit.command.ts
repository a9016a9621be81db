import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { OrganizationUnitResponse } from '../domain/organization-unit.response.dto';
import type { CreateOrganizationUnitRequest } from './create-organization-unit.request.dto';

export class CreateOrganizationUnitCommand extends Command<OrganizationUnitResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly input: CreateOrganizationUnitRequest,
  ) {
    super();
  }
}
