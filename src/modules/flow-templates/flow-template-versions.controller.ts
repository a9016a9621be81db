import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { ApiDocs } from '../../shared/http/route-docs';
import { ReadById, Route, WriteById } from '../../shared/http/routes';
import { NewestFirstPageResponse } from '../../shared/pagination/newest-first-page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { FlowVersionResponse } from '../flows';
import { CopyFlowTemplateVersionCommand } from './copy-flow-template-version/copy-flow-template-version.command';
import { CreateFlowTemplateVersionCommand } from './create-flow-template-version/create-flow-template-version.command';
import { DeprecateFlowTemplateVersionCommand } from './deprecate-flow-template-version/deprecate-flow-template-version.command';
import { CopyFlowTemplateVersionRequest } from './dto/copy-flow-template-version.request.dto';
import { CreateFlowTemplateVersionRequest, ListFlowTemplateVersionsParams } from './dto/flow-template-version.request.dto';
import { FlowTemplateValidationReport, FlowTemplateVersionResponse } from './dto/flow-template-version.response.dto';
import { FLOW_TEMPLATE_VERSIONS_DOCS } from './flow-template-versions.docs';
import { GetFlowTemplateVersionQuery } from './get-flow-template-version/get-flow-template-version.query';
import { ListFlowTemplateVersionsQuery } from './list-flow-template-versions/list-flow-template-versions.query';
import { ReleaseFlowTemplateVersionCommand } from './release-flow-template-version/release-flow-template-version.command';
import { ValidateFlowTemplateVersionQuery } from './validate-flow-template-version/validate-flow-template-version.query';

export class FlowTemplateVersionPage extends NewestFirstPageResponse(FlowTemplateVersionResponse) {}

const NOT_FOUND = 'The template or the version is missing, or the version belongs to another template.';

/** The immutable versions of a flow template, their release, and their copy into a tenant's flow. */
@ApiTags('flow-templates')
@ApiBearerAuth()
@ApiDocs(FLOW_TEMPLATE_VERSIONS_DOCS)
@Controller('v1/flow-templates/:flowTemplateId/versions')
export class FlowTemplateVersionsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', '', { operationId: 'flowTemplateVersions_list', type: FlowTemplateVersionPage, description: 'Newest first by versionNumber.', notFound: NOT_FOUND })
  list(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('flowTemplateId') flowTemplateId: string,
    @Query() params: ListFlowTemplateVersionsParams,
  ): Promise<FlowTemplateVersionPage> {
    return this.queryBus.execute(new ListFlowTemplateVersionsQuery(principal, flowTemplateId, params));
  }

  @Route('post', '', {
    operationId: 'flowTemplateVersions_create',
    platformAdminOnly: true,
    type: FlowTemplateVersionResponse,
    location: '/v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}',
    description: 'A `draft`; `Location: /v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}`.',
    badRequest: 'Save rules, paths under `body.graph` / `body.parameters` (e.g. `body.graph.deviceTypeId` `type`: must be null).',
    notFound: NOT_FOUND,
  })
  create(@UuidParam('flowTemplateId') flowTemplateId: string, @Body() body: CreateFlowTemplateVersionRequest): Promise<FlowTemplateVersionResponse> {
    return this.commandBus.execute(new CreateFlowTemplateVersionCommand(flowTemplateId, body));
  }

  @ReadById(':flowTemplateVersionId', { operationId: 'flowTemplateVersions_get', type: FlowTemplateVersionResponse, notFound: NOT_FOUND })
  get(@UuidParam('flowTemplateId') flowTemplateId: string, @UuidParam('flowTemplateVersionId') flowTemplateVersionId: string): Promise<FlowTemplateVersionResponse> {
    return this.queryBus.execute(new GetFlowTemplateVersionQuery(flowTemplateId, flowTemplateVersionId));
  }

  @WriteById('post', ':flowTemplateVersionId/validate', {
    operationId: 'flowTemplateVersions_validate',
    type: FlowTemplateValidationReport,
    description: 'The compile report (a read: nothing changes).',
    notFound: NOT_FOUND,
  })
  validate(@UuidParam('flowTemplateId') flowTemplateId: string, @UuidParam('flowTemplateVersionId') flowTemplateVersionId: string): Promise<FlowTemplateValidationReport> {
    return this.queryBus.execute(new ValidateFlowTemplateVersionQuery(flowTemplateId, flowTemplateVersionId));
  }

  @WriteById('post', ':flowTemplateVersionId/release', {
    operationId: 'flowTemplateVersions_release',
    platformAdminOnly: true,
    type: FlowTemplateVersionResponse,
    description: '`released`, with `checksum` and `requiredFields`.',
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): only a draft is released.',
    unprocessable: '`FLOW_FAILURE` `gate` `compile` with `issues`; nothing changed.',
  })
  release(@UuidParam('flowTemplateId') flowTemplateId: string, @UuidParam('flowTemplateVersionId') flowTemplateVersionId: string): Promise<FlowTemplateVersionResponse> {
    return this.commandBus.execute(new ReleaseFlowTemplateVersionCommand(flowTemplateId, flowTemplateVersionId));
  }

  @WriteById('post', ':flowTemplateVersionId/deprecate', {
    operationId: 'flowTemplateVersions_deprecate',
    platformAdminOnly: true,
    type: FlowTemplateVersionResponse,
    description: '`deprecated`: no longer copied; flows copied from it keep their versions.',
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): only a released version is deprecated.',
  })
  deprecate(@UuidParam('flowTemplateId') flowTemplateId: string, @UuidParam('flowTemplateVersionId') flowTemplateVersionId: string): Promise<FlowTemplateVersionResponse> {
    return this.commandBus.execute(new DeprecateFlowTemplateVersionCommand(flowTemplateId, flowTemplateVersionId));
  }

  @Route('post', ':flowTemplateVersionId/copy', {
    operationId: 'flowTemplateVersions_copy',
    permission: 'flows:write',
    type: FlowVersionResponse,
    location: '/v1/flows/{flowId}/versions/{flowVersionId}',
    description: 'A new `draft` of the flow with `sourceTemplate`; `Location: /v1/flows/{flowId}/versions/{flowVersionId}`.',
    badRequest: '`body.flowId` `reference_not_found`: no such flow visible to the caller (also another tenant’s flow).',
    forbidden: '`missing_permission`: needs `flows:write` through a tenant-level grant in the flow’s tenant.',
    notFound: NOT_FOUND,
    conflict: '`version_not_released` (+`currentStatus`): a draft or deprecated version is not copied.',
  })
  copy(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowTemplateId') flowTemplateId: string,
    @UuidParam('flowTemplateVersionId') flowTemplateVersionId: string,
    @Body() body: CopyFlowTemplateVersionRequest,
  ): Promise<FlowVersionResponse> {
    return this.commandBus.execute(new CopyFlowTemplateVersionCommand(caller, flowTemplateId, flowTemplateVersionId, body.flowId));
  }
}
