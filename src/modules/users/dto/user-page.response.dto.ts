import { PageResponse } from '../../../shared/pagination/page';
import { UserResponse } from '../../identity/dto/user.response.dto';

export class UserPage extends PageResponse(UserResponse) {}
