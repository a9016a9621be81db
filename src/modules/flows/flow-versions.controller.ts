import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { CreateFlowVersionCommand } from './create-flow-version/create-flow-version.command';
import { CreateFlowVersionRequest } from './dto/create-flow-version.request.dto';
import { DeprecateFlowVersionCommand } from './deprecate-flow-version/deprecate-flow-version.command';
import { FlowVersionResponse } from './dto/flow-version.response.dto';
import { ValidationReportResponse } from './dto/validation-report.response.dto';
import { GetFlowVersionQuery } from './get-flow-version/get-flow-version.query';
import { FlowVersionPage } from './dto/flow-version-page.response.dto';
import { ListFlowVersionsQuery } from './list-flow-versions/list-flow-versions.query';
import { ListFlowVersionsParams } from './dto/list-flow-versions.request.dto';
import { ReleaseFlowVersionCommand } from './release-flow-version/release-flow-version.command';
import { ValidateFlowVersionQuery } from './validate-flow-version/validate-flow-version.query';

const NOT_FOUND = 'The flow or the version is missing, or in a tenant the caller has no effective grant in (`flow`, `flow_version`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

@ApiTags('flows')
@ApiBearerAuth()
@Controller('v1/flows/:flowId/versions')
export class FlowVersionsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get()
  @OperationId('ListFlowVersionsController_list')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FlowVersionPage, description: 'Newest first by versionNumber; no total.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: ListFlowVersionsParams): Promise<FlowVersionPage> {
    return this.queryBus.execute(new ListFlowVersionsQuery(caller, flowId, params));
  }

  @Post()
  @OperationId('CreateFlowVersionController_create')
  @RequirePermission('flows:write')
  @ApiCreatedResponse({ type: FlowVersionResponse, description: 'A `draft` numbered max + 1; `Location: /v1/flows/{flowId}/versions/{flowVersionId}`.' })
  @ApiBadRequestResponse({ description: 'Save rules, paths under `body.graph` / `body.parameters` (e.g. `body.graph.nodes[3].nodeId` `unique`, `body.graph.nodes` `system_node_count`, `body.graph.deviceTypeId` `mismatch`).' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  async create(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @Body() body: CreateFlowVersionRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowVersionResponse> {
    const version = await this.commandBus.execute(new CreateFlowVersionCommand(caller, flowId, body));
    res.location(`/v1/flows/${flowId}/versions/${version.flowVersionId}`);
    return version;
  }

  @Get(':flowVersionId')
  @OperationId('GetFlowVersionController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FlowVersionResponse })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @UuidParam('flowVersionId') flowVersionId: string): Promise<FlowVersionResponse> {
    return this.queryBus.execute(new GetFlowVersionQuery(caller, flowId, flowVersionId));
  }

  @Post(':flowVersionId/validate')
  @OperationId('ValidateFlowVersionController_validate')
  @HttpCode(200)
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ValidationReportResponse, description: 'Any status; against the current fields and blocks. Stores nothing.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  validate(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('flowVersionId') flowVersionId: string,
  ): Promise<ValidationReportResponse> {
    return this.queryBus.execute(new ValidateFlowVersionQuery(caller, flowId, flowVersionId));
  }

  @Post(':flowVersionId/release')
  @OperationId('ReleaseFlowVersionController_release')
  @HttpCode(200)
  @RequirePermission('flows:release')
  @ApiOkResponse({ type: FlowVersionResponse, description: '`released` with `checksum` and `releasedAt`; not activated.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): only a draft is released.' })
  @ApiUnprocessableEntityResponse({ description: 'FLOW_FAILURE `gate` `compile` with `details.issues`.' })
  release(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('flowVersionId') flowVersionId: string,
  ): Promise<FlowVersionResponse> {
    return this.commandBus.execute(new ReleaseFlowVersionCommand(caller, flowId, flowVersionId));
  }

  @Post(':flowVersionId/deprecate')
  @OperationId('DeprecateFlowVersionController_deprecate')
  @HttpCode(200)
  @RequirePermission('flows:release')
  @ApiOkResponse({ type: FlowVersionResponse, description: '`deprecated`; an active version stays active but cannot be activated again.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): only a released version is deprecated.' })
  deprecate(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('flowVersionId') flowVersionId: string,
  ): Promise<FlowVersionResponse> {
    return this.commandBus.execute(new DeprecateFlowVersionCommand(caller, flowId, flowVersionId));
  }
}
