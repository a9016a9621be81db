import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { EmailTemplateResponse } from '../dto/email-template.response.dto';
import type { CreateEmailTemplateRequest } from '../dto/email-template.request.dto';

export class CreateEmailTemplateCommand extends Command<EmailTemplateResponse> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly input: CreateEmailTemplateRequest,
  ) {
    super();
  }
}
