import { Body, Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { ExecutionResultResponse } from './dto/execution-result.response.dto';
import { PreviewFlowQuery } from './preview-flow/preview-flow.query';
import { PreviewFlowRequest } from './dto/preview-flow.request.dto';
import { FixtureRunResponse } from './dto/fixture-run.response.dto';
import { RunFixturesQuery } from './run-fixtures/run-fixtures.query';
import { RunFixturesRequest } from './dto/run-fixtures.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_RUNS_DOCS } from './flow-runs.docs';
import { Route } from '../../shared/http/routes';

const NOT_FOUND = 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `flow`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';
const FAILURE = 'FLOW_FAILURE (`gate` `compile`, `details.issues`): a draft version with an `error` issue.';
const SANDBOX = 'DEPENDENCY_FAILURE (`dependency` `sandbox`): the script sandbox is unavailable; retry later.';

/** Runs of a flow version that store and send nothing: fixture runs and previews. */
@ApiTags('flows')
@ApiBearerAuth()
@ApiDocs(FLOW_RUNS_DOCS)
@Controller('v1/flows/:flowId')
export class FlowRunsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Route('post', 'fixture-runs', {
    operationId: 'flowFixtures_run',
    permission: 'flows:write',
    status: 200,
    type: FixtureRunResponse,
    description: 'Not stored.',
    badRequest: '`reference_not_found` at `body.flowVersionId` or `body.fixtureIds[n]`: not of this flow.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    unprocessable: FAILURE,
    extra: [ApiServiceUnavailableResponse({ description: SANDBOX })],
  })
  run(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Body() body: RunFixturesRequest): Promise<FixtureRunResponse> {
    return this.queryBus.execute(new RunFixturesQuery(caller, flowId, body));
  }

  @Route('post', 'preview', {
    operationId: 'flows_preview',
    permission: 'flows:write',
    status: 200,
    type: ExecutionResultResponse,
    description: 'The execution result with its trace; nothing stored or sent.',
    badRequest: 'Input rules (paths under `body.input`, `mismatch` for another tenant or device type); `reference_not_found` at `body.flowVersionId`.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    unprocessable: FAILURE,
    extra: [ApiServiceUnavailableResponse({ description: SANDBOX })],
  })
  preview(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Body() body: PreviewFlowRequest): Promise<ExecutionResultResponse> {
    return this.queryBus.execute(new PreviewFlowQuery(caller, flowId, body));
  }
}
