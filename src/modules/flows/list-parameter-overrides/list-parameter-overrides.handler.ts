import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import type { Page } from '../../../shared/pagination/page';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowParameterOverrideEntity } from '../persistence/flow-parameter-override.entity';
import { ParameterOverrideResponse } from '../dto/parameter-override.response.dto';
import { ListParameterOverridesQuery } from './list-parameter-overrides.query';

/** The overrides that can apply to the flow: the tenant's, the device type's and its devices', ascending. */
@QueryHandler(ListParameterOverridesQuery)
export class ListParameterOverridesHandler implements IQueryHandler<ListParameterOverridesQuery, Page<ParameterOverrideResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
    private readonly flows: FlowRepository,
  ) {}

  async execute({ caller, flowId, params }: ListParameterOverridesQuery): Promise<Page<ParameterOverrideResponse>> {
    const level = params.level ?? null;
    const deviceId = params.deviceId?.toLowerCase() ?? null;
    const key = params.key ?? null;
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `flows/${flowId}/parameter-overrides`,
      filters: { level, deviceId, key },
      limit: params.limit,
      cursor: params.cursor,
    };
    this.paginator.verify(pageRequest);
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const query = this.dataSource
      .getRepository(FlowParameterOverrideEntity)
      .createQueryBuilder('o')
      .where('o.tenant_id = :tenantId', { tenantId: flow.tenantId })
      .andWhere(`(o.level = 'tenant' OR o.device_type_id = :deviceTypeId)`, { deviceTypeId: flow.deviceTypeId });
    if (level) query.andWhere('o.level = :level', { level });
    if (deviceId) query.andWhere('o.device_id = :deviceId', { deviceId });
    if (key) query.andWhere('o.key = :key', { key });
    const page = await this.paginator.ascending(query, { createdAt: 'o.created_at', id: 'o.parameter_override_id' }, pageRequest);
    return { ...page, items: page.items.map((row) => ParameterOverrideResponse.of(row)) };
  }
}
