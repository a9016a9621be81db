import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import type { FieldViolation } from '../../../shared/errors/error-codes';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { NewestFirstPaginator, WindowedPageRequest } from '../../../shared/pagination/newest-first-paginator';
import type { FlowEntity } from '../../flows';
import { FlowRepository } from '../../flows';
import { ExecutionResponse } from '../dto/execution.response.dto';
import { FlowExecutionEntity } from '../persistence/flow-execution.entity';
import { ListFlowExecutionsQuery } from './list-flow-executions.query';

const FILTER_COLUMNS = {
  deviceId: 'e.device_id',
  status: 'e.status',
  flowVersionId: 'e.flow_version_id',
  mode: 'e.mode',
  replayId: 'e.replay_id',
  correlationId: 'e.correlation_id',
} as const;

type Filters = Record<keyof typeof FILTER_COLUMNS, string | null>;

/** A flow's executions, newest first by (startedAt, id) on the (flow_id, started_at DESC, id DESC) index. */
@QueryHandler(ListFlowExecutionsQuery)
export class ListFlowExecutionsHandler implements IQueryHandler<ListFlowExecutionsQuery, NewestFirstPage<ExecutionResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly paginator: NewestFirstPaginator,
  ) {}

  async execute({ caller, flowId, params }: ListFlowExecutionsQuery): Promise<NewestFirstPage<ExecutionResponse>> {
    const filters: Filters = {
      deviceId: params.deviceId?.toLowerCase() ?? null,
      status: params.status ?? null,
      flowVersionId: params.flowVersionId?.toLowerCase() ?? null,
      mode: params.mode ?? null,
      replayId: params.replayId?.toLowerCase() ?? null,
      correlationId: params.correlationId ?? null,
    };
    const request: WindowedPageRequest = {
      actorId: caller.principal.userId,
      // Flow ids are never reused, so the cursor is checked before the lookup (a 400 comes before a 404).
      scope: `flows/${flowId}/executions`,
      filters,
      limit: params.limit,
      cursor: params.cursor,
      window: params.window(),
    };
    this.paginator.verify(request);
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    await this.checkReferences(flow, filters);
    const query = this.dataSource.getRepository(FlowExecutionEntity).createQueryBuilder('e').where('e.flow_id = :flowId', { flowId });
    for (const name of Object.keys(FILTER_COLUMNS) as (keyof Filters)[]) {
      const value = filters[name];
      if (value !== null) query.andWhere(`${FILTER_COLUMNS[name]} = :${name}`, { [name]: value });
    }
    const page = await this.paginator.timeWindowed(query, { time: 'e.started_at', id: 'e.flow_execution_id' }, request);
    return { ...page, items: page.items.map((row) => ExecutionResponse.of(row)) };
  }

  /** A filter id naming nothing of this flow (a device of its type, one of its versions or replays) is a 400. */
  private async checkReferences(flow: FlowEntity, filters: Filters): Promise<void> {
    if (filters.deviceId === null && filters.flowVersionId === null && filters.replayId === null) return;
    const [found] = await this.dataSource.query<{ device: boolean; version: boolean; replay: boolean }[]>(
      `SELECT ($1::uuid IS NULL OR EXISTS (SELECT 1 FROM devices WHERE device_id = $1 AND tenant_id = $4 AND device_type_id = $5)) AS device,
              ($2::uuid IS NULL OR EXISTS (SELECT 1 FROM flow_versions WHERE flow_version_id = $2 AND flow_id = $6)) AS version,
              ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM flow_replays WHERE replay_id = $3 AND flow_id = $6)) AS replay`,
      [filters.deviceId, filters.flowVersionId, filters.replayId, flow.tenantId, flow.deviceTypeId, flow.flowId],
    );
    const violations: FieldViolation[] = [];
    if (!found?.device) violations.push({ path: 'query.deviceId', rule: 'reference_not_found', message: 'No device of the flow’s device type has this id.' });
    if (!found?.version) violations.push({ path: 'query.flowVersionId', rule: 'reference_not_found', message: 'This flow has no version with this id.' });
    if (!found?.replay) violations.push({ path: 'query.replayId', rule: 'reference_not_found', message: 'This flow has no replay with this id.' });
    if (violations.length > 0) throw new ValidationFailedError(violations);
  }
}
