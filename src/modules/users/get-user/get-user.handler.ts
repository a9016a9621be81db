import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { UserResponse } from '../../identity/domain/user.response.dto';
import { UserRepository } from '../domain/user.repository';
import { GetUserQuery } from './get-user.query';

@QueryHandler(GetUserQuery)
export class GetUserHandler implements IQueryHandler<GetUserQuery, UserResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserRepository,
  ) {}

  async execute({ userId }: GetUserQuery): Promise<UserResponse> {
    return UserResponse.of(await this.users.find(this.dataSource.manager, userId));
  }
}
