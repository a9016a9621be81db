import { PageResponse } from '../../../shared/pagination/page';
import { MembershipResponse } from '../domain/membership.response.dto';

export class MembershipPage extends PageResponse(MembershipResponse) {}
