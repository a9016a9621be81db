import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DISABLE_REACTIVATE, StatusTransitions } from '../../../shared/state/status-transitions';
import { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';
import { RecipientBindingEntity } from '../persistence/recipient-binding.entity';
import { RECIPIENT_BINDING_CONSTRAINTS, RecipientBindingRepository } from '../persistence/recipient-binding.repository';
import { ChangeRecipientBindingStatusCommand } from './change-recipient-binding-status.command';

const TRANSITIONS = new StatusTransitions('recipient_binding', DISABLE_REACTIVATE);

/**
 * A binding moves `active` ⇄ `disabled`; any other move is 409 `invalid_state`. A disabled binding stays listed and is
 * ignored at send. Reactivation counts against the template's 500 and is refused with `duplicate_binding` while an
 * equal binding is active.
 */
@CommandHandler(ChangeRecipientBindingStatusCommand)
export class ChangeRecipientBindingStatusHandler implements ICommandHandler<ChangeRecipientBindingStatusCommand, RecipientBindingResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly bindings: RecipientBindingRepository,
  ) {}

  async execute({ caller, recipientBindingId, action }: ChangeRecipientBindingStatusCommand): Promise<RecipientBindingResponse> {
    const { access, binding } = await this.bindings.resolve(caller.principal, recipientBindingId);
    access.require(caller.permission);
    return this.unitOfWork.run(
      async (tx) => {
        await TRANSITIONS.apply(tx, {
          action,
          lock: () => this.bindings.lock(tx.manager, recipientBindingId),
          update: async (_row, move) => {
            if (move.to === 'active') await this.bindings.assertRoomFor(tx.manager, binding.emailTemplateId);
            await tx.manager.update(RecipientBindingEntity, { recipientBindingId }, { status: move.to, updatedAt: () => 'clock_timestamp()' });
          },
          entityId: recipientBindingId,
          tenantId: binding.tenantId,
          metadata: () => ({ emailTemplateId: binding.emailTemplateId, recipientType: binding.recipientType, userId: binding.userId }),
        });
        const after = await this.bindings.lock(tx.manager, recipientBindingId);
        return RecipientBindingResponse.of(after, await this.bindings.userEmails(tx.manager, [after]));
      },
      { constraints: RECIPIENT_BINDING_CONSTRAINTS },
    );
  }
}
