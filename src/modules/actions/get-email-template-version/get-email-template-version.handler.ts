import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EmailTemplateVersionResponse } from '../dto/email-template-version.response.dto';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { GetEmailTemplateVersionQuery } from './get-email-template-version.query';

/** One version with its bodies; a version of another template is the version's 404. */
@QueryHandler(GetEmailTemplateVersionQuery)
export class GetEmailTemplateVersionHandler implements IQueryHandler<GetEmailTemplateVersionQuery, EmailTemplateVersionResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, emailTemplateId, emailTemplateVersionId }: GetEmailTemplateVersionQuery): Promise<EmailTemplateVersionResponse> {
    const { access } = await this.templates.resolve(caller.principal, emailTemplateId);
    access.require(caller.permission);
    const version = await this.templates.versions.findVersion(this.dataSource.manager, emailTemplateId, emailTemplateVersionId);
    return EmailTemplateVersionResponse.of(version.row);
  }
}
