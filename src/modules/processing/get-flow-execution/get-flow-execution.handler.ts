import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import type { FlowGraph } from '../../flows/engine';
import { FlowRepository } from '../../flows';
import { EmailDeliveryLinks } from '../../actions';
import { RawMessageReader } from '../../ingestion';
import { ExecutionDetailResponse, ExecutionDetailSources } from '../dto/execution.response.dto';
import { FlowExecutionEntity } from '../persistence/flow-execution.entity';
import { GetFlowExecutionQuery } from './get-flow-execution.query';

export const flowExecutionNotFound = () => new ResourceNotFoundError('flow_execution');

/**
 * One execution of the flow with its input, outputs and trace; another flow's execution is the execution's 404.
 * The input is rebuilt from the raw message (found by id and receipt time), the trace's node kinds and blocks
 * from the version's graph.
 */
@QueryHandler(GetFlowExecutionQuery)
export class GetFlowExecutionHandler implements IQueryHandler<GetFlowExecutionQuery, ExecutionDetailResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly deliveryLinks: EmailDeliveryLinks,
    private readonly rawMessages: RawMessageReader,
  ) {}

  async execute({ caller, flowId, flowExecutionId }: GetFlowExecutionQuery): Promise<ExecutionDetailResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    const row = await this.dataSource
      .getRepository(FlowExecutionEntity)
      .createQueryBuilder('e')
      .addSelect(['e.parameters', 'e.current', 'e.timeseries', 'e.actions', 'e.trace'])
      .where('e.flow_execution_id = :flowExecutionId AND e.flow_id = :flowId', { flowExecutionId, flowId })
      .getOne();
    if (!row) throw flowExecutionNotFound();
    access.require(caller.permission);
    const [version] = await this.dataSource.query<{ graph: FlowGraph }[]>(`SELECT graph FROM flow_versions WHERE flow_version_id = $1`, [row.flowVersionId]);
    let raw: ExecutionDetailSources['raw'] = null;
    if (row.rawIngestionMessageId !== null) {
      const message = await this.rawMessages.find(this.dataSource.manager, row.rawIngestionMessageId, row.rawReceivedAt);
      if (message) raw = { rawPayload: message.rawPayload, connectionData: message.connectionData };
    }
    const deliveries = row.mode === 'live' ? await this.deliveryLinks.forExecution(this.dataSource.manager, flowExecutionId) : [];
    return ExecutionDetailResponse.detail(row, { deviceTypeId: flow.deviceTypeId, raw, nodes: version?.graph.nodes ?? [], deliveries });
  }
}
