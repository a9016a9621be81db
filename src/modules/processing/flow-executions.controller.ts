import { Controller, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { ExecutionDetailResponse, ExecutionPage } from './dto/execution.response.dto';
import { GetFlowExecutionQuery } from './get-flow-execution/get-flow-execution.query';
import { ListFlowExecutionsQuery } from './list-flow-executions/list-flow-executions.query';
import { ListFlowExecutionsParams } from './dto/list-flow-executions.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_EXECUTIONS_DOCS } from './flow-executions.docs';
import { Route } from '../../shared/http/routes';
import { PROCESSING_PARAMETER_EXAMPLES, PROCESSING_SCHEMA_EXAMPLES } from './processing.examples';

const NOT_FOUND = 'The flow or the execution is missing, or in a tenant the caller has no effective grant in (`flow`, `flow_execution`).';

/** The execution records of a flow's live and replayed runs. */
@ApiTags('flows')
@ApiBearerAuth()
@ApiDocs(FLOW_EXECUTIONS_DOCS, { schemas: PROCESSING_SCHEMA_EXAMPLES, parameters: PROCESSING_PARAMETER_EXAMPLES })
@Controller('v1/flows/:flowId/executions')
export class FlowExecutionsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Route('get', '', {
    operationId: 'flowExecutions_list',
    permission: 'flows:read',
    type: ExecutionPage,
    description: 'Newest first by `startedAt`; items without input, outputs or trace.',
    badRequest: 'Window rules on `query.from`/`query.to`; `reference_not_found` at `query.deviceId`, `query.flowVersionId`, `query.replayId`.',
    notFound: NOT_FOUND,
  })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: ListFlowExecutionsParams): Promise<ExecutionPage> {
    return this.queryBus.execute(new ListFlowExecutionsQuery(caller, flowId, params));
  }

  @Route('get', ':flowExecutionId', {
    operationId: 'flowExecutions_get',
    permission: 'flows:read',
    type: ExecutionDetailResponse,
    description: 'With the rebuilt input, the outputs and the per-node trace.',
    notFound: NOT_FOUND,
  })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('flowExecutionId') flowExecutionId: string,
  ): Promise<ExecutionDetailResponse> {
    return this.queryBus.execute(new GetFlowExecutionQuery(caller, flowId, flowExecutionId));
  }
}
