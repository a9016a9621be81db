import { PageResponse } from '../../../shared/pagination/page';
import { OrganizationUnitResponse } from './organization-unit.response.dto';

export class OrganizationUnitPage extends PageResponse(OrganizationUnitResponse) {}
