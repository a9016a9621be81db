import { Command } from '@nestjs/cqrs';
import type { UserResponse } from '../../identity/dto/user.response.dto';
import type { CreateUserRequest } from '../dto/create-user.request.dto';

export class CreateUserCommand extends Command<UserResponse> {
  constructor(readonly input: CreateUserRequest) {
    super();
  }
}
