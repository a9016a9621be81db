import { PageResponse } from '../../../shared/pagination/page';
import { OrganizationUnitResponse } from '../domain/organization-unit.response.dto';

export class OrganizationUnitPage extends PageResponse(OrganizationUnitResponse) {}
