import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { AccessService } from '../../../shared/access/access.service';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { EmailTemplateResponse } from '../dto/email-template.response.dto';
import { EmailTemplateEntity } from '../persistence/email-template.entity';
import { EMAIL_TEMPLATE_CONSTRAINTS, EmailTemplateStore } from '../persistence/email-template.store';
import { CreateEmailTemplateCommand } from './create-email-template.command';

/** A new template of the tenant, without versions (so without an active one), lockVersion 1. */
@CommandHandler(CreateEmailTemplateCommand)
export class CreateEmailTemplateHandler implements ICommandHandler<CreateEmailTemplateCommand, EmailTemplateResponse> {
  constructor(
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, tenantNumber, input }: CreateEmailTemplateCommand): Promise<EmailTemplateResponse> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    const { tenantId } = access.tenant;
    return this.unitOfWork.run(
      async (tx) => {
        await this.templates.assertKeyAvailable(tx.manager, tenantId, input.key);
        const emailTemplateId = randomUUID();
        await tx.manager.insert(EmailTemplateEntity, { emailTemplateId, tenantId, key: input.key, name: input.name, description: input.description ?? '' });
        const view = await this.templates.view(tx.manager, emailTemplateId);
        await tx.audit({
          eventType: 'email_template.created',
          action: 'create',
          entityType: 'email_template',
          entityId: emailTemplateId,
          tenantId,
          metadata: { key: view.key, name: view.name, lockVersion: view.lockVersion },
        });
        return EmailTemplateResponse.of(view);
      },
      { constraints: EMAIL_TEMPLATE_CONSTRAINTS },
    );
  }
}
