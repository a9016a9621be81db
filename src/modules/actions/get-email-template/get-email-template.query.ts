import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { EmailTemplateResponse } from '../dto/email-template.response.dto';

export class GetEmailTemplateQuery extends Query<EmailTemplateResponse> {
  constructor(
    readonly caller: Caller,
    readonly emailTemplateId: string,
  ) {
    super();
  }
}
