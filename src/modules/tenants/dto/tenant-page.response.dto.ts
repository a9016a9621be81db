import { PageResponse } from '../../../shared/pagination/page';
import { TenantResponse } from './tenant.response.dto';

export class TenantPage extends PageResponse(TenantResponse) {}
