import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Page } from '../../../shared/pagination/page';
import type { EmailTemplateResponse } from '../dto/email-template.response.dto';
import type { ListEmailTemplatesParams } from '../dto/email-template.request.dto';

export class ListEmailTemplatesQuery extends Query<Page<EmailTemplateResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListEmailTemplatesParams,
  ) {
    super();
  }
}
