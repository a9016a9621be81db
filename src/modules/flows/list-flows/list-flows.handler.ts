import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { runTenantList, searchTerm } from '../../../shared/pagination/tenant-list';
import { FlowEntity } from '../persistence/flow.entity';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowResponse } from '../dto/flow.response.dto';
import { ListFlowsQuery } from './list-flows.query';

/** The tenant's flows, ascending by (createdAt, flowId), filtered by device type and `q`. */
@QueryHandler(ListFlowsQuery)
export class ListFlowsHandler implements IQueryHandler<ListFlowsQuery, Page<FlowResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
    private readonly flows: FlowRepository,
  ) {}

  async execute({ caller, tenantNumber, params }: ListFlowsQuery): Promise<Page<FlowResponse>> {
    const deviceTypeId = params.deviceTypeId?.toLowerCase() ?? null;
    const q = searchTerm(params.q);
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/flows`,
      filters: { deviceTypeId, q },
      limit: params.limit,
      cursor: params.cursor,
    };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.require(caller.permission),
      query: async (access) => {
        const query = this.dataSource
          .getRepository(FlowEntity)
          .createQueryBuilder('f')
          .where('f.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        if (deviceTypeId) query.andWhere('f.device_type_id = :deviceTypeId', { deviceTypeId });
        if (q) query.andWhere(`(f.key ILIKE :pattern ESCAPE '\\' OR f.name ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(q) });
        const page = await this.paginator.ascending(query, { createdAt: 'f.created_at', id: 'f.flow_id' }, pageRequest);
        const views = await this.flows.views(this.dataSource.manager, page.items.map((flow) => flow.flowId));
        return { ...page, items: views.map((view) => FlowResponse.of(view)) };
      },
    });
  }
}
