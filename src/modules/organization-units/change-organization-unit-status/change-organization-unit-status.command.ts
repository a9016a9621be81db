import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { OrganizationUnitResponse, OrganizationUnitStatus } from '../dto/organization-unit.response.dto';

export class ChangeOrganizationUnitStatusCommand extends Command<OrganizationUnitResponse> {
  constructor(
    readonly caller: Caller,
    readonly organizationUnitId: string,
    readonly status: OrganizationUnitStatus,
  ) {
    super();
  }
}
