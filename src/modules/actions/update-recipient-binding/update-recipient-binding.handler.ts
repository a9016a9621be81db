import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';
import { RecipientBindingEntity } from '../persistence/recipient-binding.entity';
import { RECIPIENT_BINDING_CONSTRAINTS, RecipientBindingRepository } from '../persistence/recipient-binding.repository';
import { UpdateRecipientBindingCommand } from './update-recipient-binding.command';

type Narrowing = 'deviceTypeId' | 'organizationUnitId' | 'includeDescendants';

/** Changes what a binding narrows to (device type, unit, descendants); `null` widens to any. */
@CommandHandler(UpdateRecipientBindingCommand)
export class UpdateRecipientBindingHandler implements ICommandHandler<UpdateRecipientBindingCommand, RecipientBindingResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly bindings: RecipientBindingRepository,
  ) {}

  async execute({ caller, recipientBindingId, changes }: UpdateRecipientBindingCommand): Promise<RecipientBindingResponse> {
    const { access } = await this.bindings.resolve(caller.principal, recipientBindingId);
    access.require(caller.permission);
    return this.unitOfWork.run(
      async (tx) => {
        const binding = await this.bindings.lock(tx.manager, recipientBindingId);
        await this.bindings.assertReferences(tx.manager, binding.tenantId, { deviceTypeId: changes.deviceTypeId, organizationUnitId: changes.organizationUnitId }, 'body');
        const changed = (['deviceTypeId', 'organizationUnitId', 'includeDescendants'] as Narrowing[]).filter(
          (field) => changes[field] !== undefined && changes[field] !== binding[field],
        );
        await tx.manager.update(
          RecipientBindingEntity,
          { recipientBindingId },
          { ...Object.fromEntries(changed.map((field) => [field, changes[field]])), updatedAt: () => 'clock_timestamp()' },
        );
        await tx.audit({
          eventType: 'recipient_binding.updated',
          action: 'update',
          entityType: 'recipient_binding',
          entityId: recipientBindingId,
          tenantId: binding.tenantId,
          metadata: {
            emailTemplateId: binding.emailTemplateId,
            changedFields: changed,
            ...Object.fromEntries(changed.map((field) => [field, { before: binding[field], after: changes[field] }])),
          },
        });
        const after = await this.bindings.lock(tx.manager, recipientBindingId);
        return RecipientBindingResponse.of(after, await this.bindings.userEmails(tx.manager, [after]));
      },
      { constraints: RECIPIENT_BINDING_CONSTRAINTS },
    );
  }
}
