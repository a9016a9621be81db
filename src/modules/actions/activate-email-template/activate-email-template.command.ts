import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { EmailTemplateResponse } from '../dto/email-template.response.dto';

export class ActivateEmailTemplateCommand extends Command<EmailTemplateResponse> {
  constructor(
    readonly caller: Caller,
    readonly emailTemplateId: string,
    readonly expectedLockVersion: number,
    readonly emailTemplateVersionId: string,
  ) {
    super();
  }
}
