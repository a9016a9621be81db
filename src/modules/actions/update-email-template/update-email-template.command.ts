import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { EmailTemplateResponse } from '../dto/email-template.response.dto';
import type { UpdateEmailTemplateRequest } from '../dto/email-template.request.dto';

export class UpdateEmailTemplateCommand extends Command<EmailTemplateResponse> {
  constructor(
    readonly caller: Caller,
    readonly emailTemplateId: string,
    readonly expectedLockVersion: number,
    readonly changes: UpdateEmailTemplateRequest,
  ) {
    super();
  }
}
