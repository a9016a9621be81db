import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PlatformAdminOnly } from '../../../shared/auth/principal';
import { UserResponse } from '../../identity/domain/user.response.dto';
import { CreateUserCommand } from './create-user.command';
import { CreateUserRequest } from './create-user.request.dto';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class CreateUserController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post()
  @ApiCreatedResponse({
    type: UserResponse,
    description: 'The user without `username`; it must change the temporary password at first sign-in. `Location: /v1/users/{userId}`.',
  })
  @ApiConflictResponse({ description: '`duplicate_username` or `duplicate_email` (case-insensitive).' })
  async create(@Body() body: CreateUserRequest, @Res({ passthrough: true }) res: Response): Promise<UserResponse> {
    const user = await this.commandBus.execute(new CreateUserCommand(body));
    res.location(`/v1/users/${user.userId}`);
    return user;
  }
}
