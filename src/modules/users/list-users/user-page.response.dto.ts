import { PageResponse } from '../../../shared/pagination/page';
import { UserResponse } from '../../identity/domain/user.response.dto';

export class UserPage extends PageResponse(UserResponse) {}
