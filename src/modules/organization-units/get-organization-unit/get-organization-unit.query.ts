import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';

export class GetOrganizationUnitQuery extends Query<OrganizationUnitResponse> {
  constructor(
    readonly caller: Caller,
    readonly organizationUnitId: string,
  ) {
    super();
  }
}
