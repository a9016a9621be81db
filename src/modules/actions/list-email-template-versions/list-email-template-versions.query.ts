import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { EmailTemplateVersionSummary } from '../dto/email-template-version.response.dto';
import type { ListEmailTemplateVersionsParams } from '../dto/email-template-version.request.dto';

export class ListEmailTemplateVersionsQuery extends Query<NewestFirstPage<EmailTemplateVersionSummary>> {
  constructor(
    readonly caller: Caller,
    readonly emailTemplateId: string,
    readonly params: ListEmailTemplateVersionsParams,
  ) {
    super();
  }
}
