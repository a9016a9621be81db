import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { NewestFirstPaginator, WindowedPageRequest } from '../../../shared/pagination/newest-first-paginator';
import { runTenantList } from '../../../shared/pagination/tenant-list';
import { DeadLetterResponse } from '../dto/dead-letter.response.dto';
import { DeadLetterEntity } from '../persistence/dead-letter.entity';
import { ListDeadLettersQuery } from './list-dead-letters.query';

/** The tenant's dead letters, newest first, no bodies; no window given means no lower bound. */
@QueryHandler(ListDeadLettersQuery)
export class ListDeadLettersHandler implements IQueryHandler<ListDeadLettersQuery, NewestFirstPage<DeadLetterResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: NewestFirstPaginator,
  ) {}

  async execute({ caller, tenantNumber, params }: ListDeadLettersQuery): Promise<NewestFirstPage<DeadLetterResponse>> {
    const filters = { status: params.status ?? null, emailTemplateId: params.emailTemplateId?.toLowerCase() ?? null };
    const request: WindowedPageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/dead-letters`,
      filters,
      limit: params.limit,
      cursor: params.cursor,
      window: params.window(),
      defaultHours: null,
    };
    return runTenantList({
      validate: () => this.paginator.verify(request),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.require(caller.permission),
      query: async (access) => {
        const query = this.dataSource
          .getRepository(DeadLetterEntity)
          .createQueryBuilder('l')
          .where('l.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        if (filters.status) query.andWhere('l.status = :status', { status: filters.status });
        if (filters.emailTemplateId) query.andWhere('l.email_template_id = :templateId', { templateId: filters.emailTemplateId });
        const page = await this.paginator.timeWindowed(query, { time: 'l.created_at', id: 'l.dead_letter_id' }, request);
        return { ...page, items: page.items.map((row) => DeadLetterResponse.of(row)) };
      },
    });
  }
}
