import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { EmailTemplateVersionSummary } from '../dto/email-template-version.response.dto';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { ListEmailTemplateVersionsQuery } from './list-email-template-versions.query';

/** A template's versions, newest first, without their bodies; a bad cursor is a 400 before the template's 404. */
@QueryHandler(ListEmailTemplateVersionsQuery)
export class ListEmailTemplateVersionsHandler implements IQueryHandler<ListEmailTemplateVersionsQuery, NewestFirstPage<EmailTemplateVersionSummary>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, emailTemplateId, params }: ListEmailTemplateVersionsQuery): Promise<NewestFirstPage<EmailTemplateVersionSummary>> {
    const request = {
      actorId: caller.principal.userId,
      scope: `email-templates/${emailTemplateId}/versions`,
      limit: params.limit,
      cursor: params.cursor,
      status: params.status,
    };
    this.templates.versions.verify(request);
    const { access } = await this.templates.resolve(caller.principal, emailTemplateId);
    access.require(caller.permission);
    const page = await this.templates.versions.list(this.dataSource.manager, emailTemplateId, request);
    return { ...page, items: page.items.map((version) => EmailTemplateVersionSummary.summaryOf(version.row)) };
  }
}
