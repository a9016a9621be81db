import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { EmailTemplateVersionResponse } from '../dto/email-template-version.response.dto';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { ChangeEmailTemplateVersionStatusCommand } from './change-email-template-version-status.command';

/**
 * Release (`draft` -> `released`, stamping `releasedAt`) or deprecate (`released` -> `deprecated`, stamping
 * `deprecatedAt`); any other move is 409 `invalid_state`. Deprecating the active version leaves it active until
 * another is activated: e-mail keeps going out, but it can never be activated again.
 */
@CommandHandler(ChangeEmailTemplateVersionStatusCommand)
export class ChangeEmailTemplateVersionStatusHandler implements ICommandHandler<ChangeEmailTemplateVersionStatusCommand, EmailTemplateVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, emailTemplateId, emailTemplateVersionId, action }: ChangeEmailTemplateVersionStatusCommand): Promise<EmailTemplateVersionResponse> {
    const { access } = await this.templates.resolve(caller.principal, emailTemplateId);
    access.require(caller.permission);
    const stamp = action === 'release' ? `status = 'released', released_at = clock_timestamp()` : `status = 'deprecated', deprecated_at = clock_timestamp()`;
    const version = await this.unitOfWork.run((tx) =>
      this.templates.versions.transition(tx, emailTemplateId, emailTemplateVersionId, action, async () => {
        // The status and its time move in one statement: the table checks that a released version has its time.
        await tx.manager.query(`UPDATE email_template_versions SET ${stamp} WHERE email_template_version_id = $1`, [emailTemplateVersionId]);
      }),
    );
    return EmailTemplateVersionResponse.of(version.row);
  }
}
