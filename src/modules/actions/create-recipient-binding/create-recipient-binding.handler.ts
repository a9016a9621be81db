import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AccessService } from '../../../shared/access/access.service';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { RecipientBindingResponse } from '../dto/recipient-binding.response.dto';
import { RecipientBindingEntity } from '../persistence/recipient-binding.entity';
import { RECIPIENT_BINDING_CONSTRAINTS, RecipientBindingRepository } from '../persistence/recipient-binding.repository';
import { CreateRecipientBindingCommand } from './create-recipient-binding.command';

/**
 * A new active binding. What it names must be the tenant's (400 `reference_not_found`); the template may have at most
 * 500 active bindings (409 `max_bindings`) and one per recipient, device type and unit (409 `duplicate_binding`).
 */
@CommandHandler(CreateRecipientBindingCommand)
export class CreateRecipientBindingHandler implements ICommandHandler<CreateRecipientBindingCommand, RecipientBindingResponse> {
  constructor(
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly bindings: RecipientBindingRepository,
  ) {}

  async execute({ caller, tenantNumber, input }: CreateRecipientBindingCommand): Promise<RecipientBindingResponse> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    const { tenantId } = access.tenant;
    return this.unitOfWork.run(
      async (tx) => {
        await this.bindings.assertReferences(
          tx.manager,
          tenantId,
          { emailTemplateId: input.emailTemplateId, userId: input.userId, deviceTypeId: input.deviceTypeId, organizationUnitId: input.organizationUnitId },
          'body',
        );
        await this.bindings.assertRoomFor(tx.manager, input.emailTemplateId);
        const recipientBindingId = randomUUID();
        await tx.manager.insert(RecipientBindingEntity, {
          recipientBindingId,
          tenantId,
          emailTemplateId: input.emailTemplateId,
          recipientType: input.recipientType,
          userId: input.recipientType === 'user' ? input.userId! : null,
          email: input.recipientType === 'email' ? input.email! : null,
          deviceTypeId: input.deviceTypeId ?? null,
          organizationUnitId: input.organizationUnitId ?? null,
          includeDescendants: input.includeDescendants ?? true,
        });
        const binding = await this.bindings.lock(tx.manager, recipientBindingId);
        await tx.audit({
          eventType: 'recipient_binding.created',
          action: 'create',
          entityType: 'recipient_binding',
          entityId: recipientBindingId,
          tenantId,
          metadata: {
            emailTemplateId: binding.emailTemplateId,
            recipientType: binding.recipientType,
            userId: binding.userId,
            deviceTypeId: binding.deviceTypeId,
            organizationUnitId: binding.organizationUnitId,
            includeDescendants: binding.includeDescendants,
          },
        });
        return RecipientBindingResponse.of(binding, await this.bindings.userEmails(tx.manager, [binding]));
      },
      { constraints: RECIPIENT_BINDING_CONSTRAINTS },
    );
  }
}
