import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { EmailTemplateVersionResponse } from '../dto/email-template-version.response.dto';

export class GetEmailTemplateVersionQuery extends Query<EmailTemplateVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly emailTemplateId: string,
    readonly emailTemplateVersionId: string,
  ) {
    super();
  }
}
