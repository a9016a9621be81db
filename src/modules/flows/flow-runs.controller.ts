import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { ExecutionResultResponse } from './dto/execution-result.response.dto';
import { PreviewFlowQuery } from './preview-flow/preview-flow.query';
import { PreviewFlowRequest } from './dto/preview-flow.request.dto';
import { FixtureRunResponse } from './dto/fixture-run.response.dto';
import { RunFixturesQuery } from './run-fixtures/run-fixtures.query';
import { RunFixturesRequest } from './dto/run-fixtures.request.dto';

const NOT_FOUND = 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `flow`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';
const FAILURE = 'FLOW_FAILURE (`gate` `compile`, `details.issues`): a draft version with an `error` issue.';
const SANDBOX = 'DEPENDENCY_FAILURE (`dependency` `sandbox`): the script sandbox is unavailable; retry later.';

/** Runs of a flow version that store and send nothing: fixture runs and previews. */
@ApiTags('flows')
@ApiBearerAuth()
@Controller('v1/flows/:flowId')
export class FlowRunsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Post('fixture-runs')
  @OperationId('RunFixturesController_run')
  @HttpCode(200)
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: FixtureRunResponse, description: 'Not stored.' })
  @ApiBadRequestResponse({ description: '`reference_not_found` at `body.flowVersionId` or `body.fixtureIds[n]`: not of this flow.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiUnprocessableEntityResponse({ description: FAILURE })
  @ApiServiceUnavailableResponse({ description: SANDBOX })
  run(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Body() body: RunFixturesRequest): Promise<FixtureRunResponse> {
    return this.queryBus.execute(new RunFixturesQuery(caller, flowId, body));
  }

  @Post('preview')
  @OperationId('PreviewFlowController_preview')
  @HttpCode(200)
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: ExecutionResultResponse, description: 'The execution result with its trace; nothing stored or sent.' })
  @ApiBadRequestResponse({ description: 'Input rules (paths under `body.input`, `mismatch` for another tenant or device type); `reference_not_found` at `body.flowVersionId`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiUnprocessableEntityResponse({ description: FAILURE })
  @ApiServiceUnavailableResponse({ description: SANDBOX })
  preview(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Body() body: PreviewFlowRequest): Promise<ExecutionResultResponse> {
    return this.queryBus.execute(new PreviewFlowQuery(caller, flowId, body));
  }
}
