import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';
import type { OrganizationUnitChanges } from '../dto/update-organization-unit.request.dto';

export class UpdateOrganizationUnitCommand extends Command<OrganizationUnitResponse> {
  constructor(
    readonly caller: Caller,
    readonly organizationUnitId: string,
    readonly changes: OrganizationUnitChanges,
  ) {
    super();
  }
}
