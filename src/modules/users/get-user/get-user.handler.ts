import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { UserResponse } from '../../identity';
import { UserRepository } from '../persistence/user.repository';
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
