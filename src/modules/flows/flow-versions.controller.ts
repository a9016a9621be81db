import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_VERSIONS_DOCS } from './flow-versions.docs';
import { Route, WriteById } from '../../shared/http/routes';

const NOT_FOUND = 'The flow or the version is missing, or in a tenant the caller has no effective grant in (`flow`, `flow_version`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

@ApiTags('flows')
@ApiBearerAuth()
@ApiDocs(FLOW_VERSIONS_DOCS)
@Controller('v1/flows/:flowId/versions')
export class FlowVersionsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', '', {
    operationId: 'flowVersions_list',
    permission: 'flows:read',
    type: FlowVersionPage,
    description: 'Newest first by versionNumber; no total.',
    notFound: NOT_FOUND,
  })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: ListFlowVersionsParams): Promise<FlowVersionPage> {
    return this.queryBus.execute(new ListFlowVersionsQuery(caller, flowId, params));
  }

  @Route('post', '', {
    operationId: 'flowVersions_create',
    permission: 'flows:write',
    type: FlowVersionResponse,
    location: '/v1/flows/{flowId}/versions/{flowVersionId}',
    description: 'A `draft` numbered max + 1; `Location: /v1/flows/{flowId}/versions/{flowVersionId}`.',
    badRequest: 'Save rules, paths under `body.graph` / `body.parameters` (e.g. `body.graph.nodes[3].nodeId` `unique`, `body.graph.nodes` `system_node_count`, `body.graph.deviceTypeId` `mismatch`).',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
  })
  create(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @Body() body: CreateFlowVersionRequest,
  ): Promise<FlowVersionResponse> {
    return this.commandBus.execute(new CreateFlowVersionCommand(caller, flowId, body));
  }

  @Route('get', ':flowVersionId', { operationId: 'flowVersions_get', permission: 'flows:read', type: FlowVersionResponse, notFound: NOT_FOUND })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @UuidParam('flowVersionId') flowVersionId: string): Promise<FlowVersionResponse> {
    return this.queryBus.execute(new GetFlowVersionQuery(caller, flowId, flowVersionId));
  }

  @WriteById('post', ':flowVersionId/validate', {
    operationId: 'flowVersions_validate',
    permission: 'flows:read',
    type: ValidationReportResponse,
    description: 'Any status; against the current fields and blocks. Stores nothing.',
    notFound: NOT_FOUND,
  })
  validate(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('flowVersionId') flowVersionId: string,
  ): Promise<ValidationReportResponse> {
    return this.queryBus.execute(new ValidateFlowVersionQuery(caller, flowId, flowVersionId));
  }

  @WriteById('post', ':flowVersionId/release', {
    operationId: 'flowVersions_release',
    permission: 'flows:release',
    type: FlowVersionResponse,
    description: '`released` with `checksum` and `releasedAt`; not activated.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): only a draft is released.',
    unprocessable: 'FLOW_FAILURE `gate` `compile` with `details.issues`.',
  })
  release(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('flowVersionId') flowVersionId: string,
  ): Promise<FlowVersionResponse> {
    return this.commandBus.execute(new ReleaseFlowVersionCommand(caller, flowId, flowVersionId));
  }

  @WriteById('post', ':flowVersionId/deprecate', {
    operationId: 'flowVersions_deprecate',
    permission: 'flows:release',
    type: FlowVersionResponse,
    description: '`deprecated`; an active version stays active but cannot be activated again.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): only a released version is deprecated.',
  })
  deprecate(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @UuidParam('flowVersionId') flowVersionId: string,
  ): Promise<FlowVersionResponse> {
    return this.commandBus.execute(new DeprecateFlowVersionCommand(caller, flowId, flowVersionId));
  }
}
