import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { searchTerm } from '../../../shared/pagination/tenant-list';
import { FlowTemplateResponse } from '../dto/flow-template.response.dto';
import { FlowTemplateEntity } from '../persistence/flow-template.entity';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { ListFlowTemplatesQuery } from './list-flow-templates.query';

/**
 * Every template, ascending by (createdAt, flowTemplateId), `q` on key or name, `status`: only templates with a
 * version in that status (`released` is the catalog); exact totalCount. Any signed-in caller may list them.
 */
@QueryHandler(ListFlowTemplatesQuery)
export class ListFlowTemplatesHandler implements IQueryHandler<ListFlowTemplatesQuery, Page<FlowTemplateResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
    private readonly store: FlowTemplateStore,
  ) {}

  async execute({ principal, params }: ListFlowTemplatesQuery): Promise<Page<FlowTemplateResponse>> {
    const q = searchTerm(params.q);
    const status = params.status ?? null;
    const pageRequest = { actorId: principal.userId, scope: 'flow-templates', filters: { q, status }, limit: params.limit, cursor: params.cursor };
    this.paginator.verify(pageRequest);
    const query = this.dataSource.getRepository(FlowTemplateEntity).createQueryBuilder('t');
    if (q) query.andWhere(`(t.key ILIKE :pattern ESCAPE '\\' OR t.name ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(q) });
    if (status) {
      query.andWhere(`EXISTS (SELECT 1 FROM flow_template_versions tv WHERE tv.flow_template_id = t.flow_template_id AND tv.status = :status)`, { status });
    }
    const page = await this.paginator.ascending(query, { createdAt: 't.created_at', id: 't.flow_template_id' }, pageRequest);
    const summaries = await this.store.summaries(this.dataSource.manager, page.items.map((template) => template.flowTemplateId));
    return { ...page, items: page.items.map((template, index) => FlowTemplateResponse.of(template, summaries[index]!)) };
  }
}
