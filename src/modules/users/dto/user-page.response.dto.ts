import { PageResponse } from '../../../shared/pagination/page';
import { UserResponse } from '../../identity';

export class UserPage extends PageResponse(UserResponse) {}
