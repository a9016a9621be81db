import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EmailTemplateResponse } from '../dto/email-template.response.dto';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { GetEmailTemplateQuery } from './get-email-template.query';

/** One template with its active version's number. */
@QueryHandler(GetEmailTemplateQuery)
export class GetEmailTemplateHandler implements IQueryHandler<GetEmailTemplateQuery, EmailTemplateResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, emailTemplateId }: GetEmailTemplateQuery): Promise<EmailTemplateResponse> {
    const { access } = await this.templates.resolve(caller.principal, emailTemplateId);
    access.require(caller.permission);
    return EmailTemplateResponse.of(await this.templates.view(this.dataSource.manager, emailTemplateId));
  }
}
