import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { EmailTemplateVersionResponse } from '../dto/email-template-version.response.dto';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { CreateEmailTemplateVersionCommand } from './create-email-template-version.command';

/**
 * A new draft numbered max + 1 (under the template's lock). Its texts were checked by the request rules (only
 * `{{path}}` variables of the list); versions are immutable, so an edit is a new draft.
 */
@CommandHandler(CreateEmailTemplateVersionCommand)
export class CreateEmailTemplateVersionHandler implements ICommandHandler<CreateEmailTemplateVersionCommand, EmailTemplateVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, emailTemplateId, input }: CreateEmailTemplateVersionCommand): Promise<EmailTemplateVersionResponse> {
    const { access, template } = await this.templates.resolve(caller.principal, emailTemplateId);
    access.require(caller.permission);
    const version = await this.unitOfWork.run((tx) =>
      this.templates.versions.create(tx, emailTemplateId, {
        tenant_id: template.tenantId,
        subject: input.subject,
        body_text: input.bodyText,
        body_html: input.bodyHtml ?? null,
      }),
    );
    return EmailTemplateVersionResponse.of(version.row);
  }
}
