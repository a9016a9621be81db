import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { EmailTemplateResponse } from '../dto/email-template.response.dto';
import { EmailTemplateEntity } from '../persistence/email-template.entity';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { UpdateEmailTemplateCommand } from './update-email-template.command';

/**
 * Rename or redescribe a template under `If-Match`. Every successful PATCH is a new lockVersion, even one whose values
 * equal the current ones, so the ETag a client gets back always differs from the one it sent.
 */
@CommandHandler(UpdateEmailTemplateCommand)
export class UpdateEmailTemplateHandler implements ICommandHandler<UpdateEmailTemplateCommand, EmailTemplateResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, emailTemplateId, expectedLockVersion, changes }: UpdateEmailTemplateCommand): Promise<EmailTemplateResponse> {
    const { access } = await this.templates.resolve(caller.principal, emailTemplateId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const template = await this.templates.lock(tx.manager, emailTemplateId, expectedLockVersion);
      const changed: ('name' | 'description')[] = [];
      if (changes.name !== undefined && changes.name !== template.name) changed.push('name');
      if (changes.description !== undefined && changes.description !== template.description) changed.push('description');
      await tx.manager.update(
        EmailTemplateEntity,
        { emailTemplateId },
        {
          ...Object.fromEntries(changed.map((field) => [field, changes[field]])),
          lockVersion: template.lockVersion + 1,
          updatedAt: () => 'clock_timestamp()',
        },
      );
      await tx.audit({
        eventType: 'email_template.updated',
        action: 'update',
        entityType: 'email_template',
        entityId: emailTemplateId,
        tenantId: template.tenantId,
        metadata: {
          key: template.key,
          changedFields: changed,
          ...(changed.includes('name') ? { name: { before: template.name, after: changes.name } } : {}),
          lockVersion: { before: template.lockVersion, after: template.lockVersion + 1 },
        },
      });
      return EmailTemplateResponse.of(await this.templates.view(tx.manager, emailTemplateId));
    });
  }
}
