import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { VersionAction } from '../../../shared/versioning/version-store';
import type { EmailTemplateVersionResponse } from '../dto/email-template-version.response.dto';

/** `release` (draft -> released) or `deprecate` (released -> deprecated). */
export class ChangeEmailTemplateVersionStatusCommand extends Command<EmailTemplateVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly emailTemplateId: string,
    readonly emailTemplateVersionId: string,
    readonly action: VersionAction,
  ) {
    super();
  }
}
