import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBadRequestResponse, ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { ExecutionDetailResponse, ExecutionPage } from './dto/execution.response.dto';
import { GetFlowExecutionQuery } from './get-flow-execution/get-flow-execution.query';
import { ListFlowExecutionsQuery } from './list-flow-executions/list-flow-executions.query';
import { ListFlowExecutionsParams } from './dto/list-flow-executions.request.dto';

const NOT_FOUND = 'The flow or the execution is missing, or in a tenant the caller has no effective grant in (`flow`, `flow_execution`).';

/** The execution records of a flow's live and replayed runs. */
@ApiTags('flows')
@ApiBearerAuth()
@Controller('v1/flows/:flowId/executions')
export class FlowExecutionsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  @OperationId('ListFlowExecutionsController_list')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ExecutionPage, description: 'Newest first by `startedAt`; items without input, outputs or trace.' })
  @ApiBadRequestResponse({ description: 'Window rules on `query.from`/`query.to`; `reference_not_found` at `query.deviceId`, `query.flowVersionId`, `query.replayId`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: ListFlowExecutionsParams): Promise<ExecutionPage> {
    return this.queryBus.execute(new ListFlowExecutionsQuery(caller, flowId, params));
  }

  @Get(':flowExecutionId')
  @OperationId('GetFlowExecutionController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ExecutionDetailResponse, description: 'With the rebuilt input, the outputs and the per-node trace.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('flowExecutionId') flowExecutionId: string,
  ): Promise<ExecutionDetailResponse> {
    return this.queryBus.execute(new GetFlowExecutionQuery(caller, flowId, flowExecutionId));
  }
}
