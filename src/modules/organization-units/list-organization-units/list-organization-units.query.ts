import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Page } from '../../../shared/pagination/page';
import type { OrganizationUnitResponse } from '../dto/organization-unit.response.dto';
import type { ListOrganizationUnitsParams } from '../dto/list-organization-units.request.dto';

export class ListOrganizationUnitsQuery extends Query<Page<OrganizationUnitResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListOrganizationUnitsParams,
  ) {
    super();
  }
}
