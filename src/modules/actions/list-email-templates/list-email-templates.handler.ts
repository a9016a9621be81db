import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { runTenantList, searchTerm } from '../../../shared/pagination/tenant-list';
import { EmailTemplateResponse } from '../dto/email-template.response.dto';
import { EmailTemplateEntity } from '../persistence/email-template.entity';
import { EmailTemplateStore } from '../persistence/email-template.store';
import { ListEmailTemplatesQuery } from './list-email-templates.query';

/** The tenant's e-mail templates, "Ascending" family, filtered by `q` (key or name substring). */
@QueryHandler(ListEmailTemplatesQuery)
export class ListEmailTemplatesHandler implements IQueryHandler<ListEmailTemplatesQuery, Page<EmailTemplateResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
    private readonly templates: EmailTemplateStore,
  ) {}

  async execute({ caller, tenantNumber, params }: ListEmailTemplatesQuery): Promise<Page<EmailTemplateResponse>> {
    const q = searchTerm(params.q);
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/email-templates`,
      filters: { q },
      limit: params.limit,
      cursor: params.cursor,
    };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.require(caller.permission),
      query: async (access) => {
        const query = this.dataSource
          .getRepository(EmailTemplateEntity)
          .createQueryBuilder('et')
          .where('et.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        if (q) query.andWhere(`(et.key ILIKE :pattern ESCAPE '\\' OR et.name ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(q) });
        const page = await this.paginator.ascending(query, { createdAt: 'et.created_at', id: 'et.email_template_id' }, pageRequest);
        const views = await this.templates.views(this.dataSource.manager, page.items.map((item) => item.emailTemplateId));
        return { ...page, items: views.map((view) => EmailTemplateResponse.of(view)) };
      },
    });
  }
}
