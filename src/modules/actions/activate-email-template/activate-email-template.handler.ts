import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { EmailTemplateResponse } from '../dto/email-template.response.dto';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { ActivateEmailTemplateCommand } from './activate-email-template.command';

const versionReferenceNotFound = () =>
  ValidationFailedError.single('body.emailTemplateVersionId', 'reference_not_found', 'This template has no version with this id.');

/**
 * Points the template at a released version under its row lock and `If-Match`: of two parallel activations one wins
 * and the other sees the new ETag (409 `lock_version_mismatch`). Every e-mail rendered after the commit uses it.
 */
@CommandHandler(ActivateEmailTemplateCommand)
export class ActivateEmailTemplateHandler implements ICommandHandler<ActivateEmailTemplateCommand, EmailTemplateResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, emailTemplateId, expectedLockVersion, emailTemplateVersionId }: ActivateEmailTemplateCommand): Promise<EmailTemplateResponse> {
    const { access } = await this.templates.resolve(caller.principal, emailTemplateId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      try {
        await this.templates.versions.findVersion(tx.manager, emailTemplateId, emailTemplateVersionId);
      } catch (error) {
        if (error instanceof ResourceNotFoundError) throw versionReferenceNotFound();
        throw error;
      }
      await this.templates.versions.activate(tx, emailTemplateId, emailTemplateVersionId, expectedLockVersion);
      return EmailTemplateResponse.of(await this.templates.view(tx.manager, emailTemplateId));
    });
  }
}
