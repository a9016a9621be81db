import { Command } from '@nestjs/cqrs';
import type { UserResponse } from '../../identity';
import type { CreateUserRequest } from '../dto/create-user.request.dto';

export class CreateUserCommand extends Command<UserResponse> {
  constructor(readonly input: CreateUserRequest) {
    super();
  }
}
