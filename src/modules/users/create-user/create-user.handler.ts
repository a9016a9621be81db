import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { PasswordHasher, passwordPolicyViolation, UserEntity, UserResponse } from '../../identity';
import { UserRepository, USER_CONSTRAINTS } from '../persistence/user.repository';
import { CreateUserCommand } from './create-user.command';

/** The user and its forced-change credential in one transaction; the response has no username. */
@CommandHandler(CreateUserCommand)
export class CreateUserHandler implements ICommandHandler<CreateUserCommand, UserResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly hasher: PasswordHasher,
    private readonly users: UserRepository,
  ) {}

  async execute({ input }: CreateUserCommand): Promise<UserResponse> {
    const violation = passwordPolicyViolation(input.temporaryPassword, input);
    if (violation) throw ValidationFailedError.single('body.temporaryPassword', 'password_policy', violation);
    // bcrypt runs before the transaction opens, so no row or connection is held while it works.
    const passwordHash = await this.hasher.hash(input.temporaryPassword);

    return this.unitOfWork.run(
      async (tx) => {
        await this.users.assertAvailable(tx.manager, { username: input.username, email: input.email });
        const inserted = await tx.manager.insert(UserEntity, {
          username: input.username,
          email: input.email,
          displayName: input.displayName,
          metadata: input.metadata ?? {},
          passwordHash,
          passwordChangeRequired: true,
        });
        const userId = (inserted.identifiers[0] as { userId: string }).userId;
        const user = await this.users.find(tx.manager, userId);
        await tx.audit({
          eventType: 'user.created',
          action: 'create',
          entityType: 'user',
          entityId: user.userId,
          metadata: { username: user.username, status: user.status, platformRoles: [] },
        });
        return UserResponse.of(user, { withUsername: false });
      },
      { constraints: USER_CONSTRAINTS },
    );
  }
}
