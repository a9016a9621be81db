import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { EmailTemplateVersionResponse } from '../dto/email-template-version.response.dto';
import type { CreateEmailTemplateVersionRequest } from '../dto/email-template-version.request.dto';

export class CreateEmailTemplateVersionCommand extends Command<EmailTemplateVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly emailTemplateId: string,
    readonly input: CreateEmailTemplateVersionRequest,
  ) {
    super();
  }
}
