import { PageResponse } from '../../../shared/pagination/page';
import { MembershipResponse } from './membership.response.dto';

export class MembershipPage extends PageResponse(MembershipResponse) {}
