import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { ListFlowTemplateVersionsQuery } from './list-flow-template-versions.query';

/** A template's versions, newest first by versionNumber, optionally of one status; a bad cursor is a 400 before the 404. */
@QueryHandler(ListFlowTemplateVersionsQuery)
export class ListFlowTemplateVersionsHandler implements IQueryHandler<ListFlowTemplateVersionsQuery, NewestFirstPage<FlowTemplateVersionResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: FlowTemplateStore,
  ) {}

  async execute({ principal, flowTemplateId, params }: ListFlowTemplateVersionsQuery): Promise<NewestFirstPage<FlowTemplateVersionResponse>> {
    const request = { actorId: principal.userId, scope: `flow-templates/${flowTemplateId}/versions`, limit: params.limit, cursor: params.cursor, status: params.status };
    this.store.versions.verify(request);
    await this.store.find(flowTemplateId);
    const page = await this.store.versions.list(this.dataSource.manager, flowTemplateId, request);
    return { ...page, items: page.items.map((version) => FlowTemplateVersionResponse.of(version)) };
  }
}
