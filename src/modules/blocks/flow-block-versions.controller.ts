import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { NewestFirstPageResponse } from '../../shared/pagination/newest-first-page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { BlockGateReport, FlowBlockRunResult, FlowBlockVersionResponse, FlowBlockVersionSummary } from './dto/flow-block-version.response.dto';
import { CompileFlowBlockVersionCommand } from './compile-flow-block-version/compile-flow-block-version.command';
import { CreateFlowBlockVersionCommand } from './create-flow-block-version/create-flow-block-version.command';
import { DeprecateFlowBlockVersionCommand } from './deprecate-flow-block-version/deprecate-flow-block-version.command';
import { ReleaseFlowBlockVersionCommand } from './release-flow-block-version/release-flow-block-version.command';
import { RunFlowBlockVersionCommand } from './run-flow-block-version/run-flow-block-version.command';
import { GetFlowBlockVersionQuery } from './get-flow-block-version/get-flow-block-version.query';
import { ListFlowBlockVersionsQuery } from './list-flow-block-versions/list-flow-block-versions.query';
import { CreateFlowBlockVersionRequest, ListFlowBlockVersionsParams, RunFlowBlockVersionRequest } from './dto/flow-block-version.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_BLOCK_VERSIONS_DOCS } from './flow-block-versions.docs';
import { Route, WriteById } from '../../shared/http/routes';

export class FlowBlockVersionPage extends NewestFirstPageResponse(FlowBlockVersionSummary) {}

export class FlowBlockCompileResult {
  @ApiProperty({ description: 'Whether the compile gate passed.' })
  passed!: boolean;

  @ApiProperty({ type: BlockGateReport })
  gateReport!: BlockGateReport;
}

const NOT_FOUND = 'The block or the version is missing, the version belongs to another block, or the block is in a tenant the caller holds no effective grant in.';
const WRITE_403 = '`missing_permission` (tenant block); `platform_admin_required` (global block).';

/** The immutable versions of a custom block and their gates. */
@ApiTags('flow-blocks')
@ApiBearerAuth()
@ApiDocs(FLOW_BLOCK_VERSIONS_DOCS)
@Controller('v1/flow-blocks/:flowBlockId/versions')
export class FlowBlockVersionsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', '', {
    operationId: 'flowBlockVersions_list',
    permission: 'blocks:read',
    type: FlowBlockVersionPage,
    description: 'Newest first by versionNumber; no `sourceCode`.',
    forbidden: '`missing_permission`: a tenant block needs `blocks:read` through a tenant-level grant.',
    notFound: NOT_FOUND,
  })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowBlockId') flowBlockId: string, @Query() params: ListFlowBlockVersionsParams): Promise<FlowBlockVersionPage> {
    return this.queryBus.execute(new ListFlowBlockVersionsQuery(caller, flowBlockId, params));
  }

  @Route('post', '', {
    operationId: 'flowBlockVersions_create',
    permission: 'blocks:write',
    type: FlowBlockVersionResponse,
    location: '/v1/flow-blocks/{flowBlockId}/versions/{flowBlockVersionId}',
    description: 'A `draft`; `Location: /v1/flow-blocks/{flowBlockId}/versions/{flowBlockVersionId}`.',
    forbidden: WRITE_403,
    notFound: NOT_FOUND,
  })
  create(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @Body() body: CreateFlowBlockVersionRequest,
  ): Promise<FlowBlockVersionResponse> {
    return this.commandBus.execute(new CreateFlowBlockVersionCommand(caller, flowBlockId, body));
  }

  @Route('get', ':flowBlockVersionId', {
    operationId: 'flowBlockVersions_get',
    permission: 'blocks:read',
    type: FlowBlockVersionResponse,
    description: 'With `sourceCode`, `artifact` and `gateReport`.',
    forbidden: '`missing_permission`: a tenant block needs `blocks:read` through a tenant-level grant.',
    notFound: NOT_FOUND,
  })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
  ): Promise<FlowBlockVersionResponse> {
    return this.queryBus.execute(new GetFlowBlockVersionQuery(caller, flowBlockId, flowBlockVersionId));
  }

  @WriteById('post', ':flowBlockVersionId/compile', {
    operationId: 'flowBlockVersions_compile',
    permission: 'blocks:write',
    type: FlowBlockCompileResult,
    description: 'The compile gate only; nothing changes, whatever the outcome.',
    forbidden: WRITE_403,
    notFound: NOT_FOUND,
  })
  compile(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
  ): Promise<FlowBlockCompileResult> {
    return this.commandBus.execute(new CompileFlowBlockVersionCommand(caller, flowBlockId, flowBlockVersionId));
  }

  @WriteById('post', ':flowBlockVersionId/run', {
    operationId: 'flowBlockVersions_run',
    permission: 'blocks:write',
    type: FlowBlockRunResult,
    description: 'A dry run, whatever the outcome: `{ok: true, result, ...}` or `{ok: false, error, ...}`, with `logs`, `logsTruncated`, `durationMs`. Nothing stored or audited.',
    badRequest: 'Request rules: exactly one of `input` and `rawIngestionMessageId` (`required` / `mismatch`); `configuration` or `parameters` given twice (`mismatch`); a raw message without a decodable payload (`format`).',
    forbidden: WRITE_403,
    notFound: `${NOT_FOUND} \`raw_ingestion_message\`: no such message in the block’s tenant.`,
    unprocessable: '`FLOW_FAILURE` `gate` `compile` with `issues`: the source does not compile.',
    extra: [ApiServiceUnavailableResponse({ description: 'DEPENDENCY_FAILURE (`dependency` `sandbox`): the script sandbox is unavailable; retry later.' })],
  })
  run(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
    @Body() body: RunFlowBlockVersionRequest,
  ): Promise<FlowBlockRunResult> {
    return this.commandBus.execute(new RunFlowBlockVersionCommand(caller, flowBlockId, flowBlockVersionId, body));
  }

  @WriteById('post', ':flowBlockVersionId/release', {
    operationId: 'flowBlockVersions_release',
    permission: 'blocks:release',
    type: FlowBlockVersionResponse,
    description: '`released`, with `artifact` and `gateReport`.',
    forbidden: '`missing_permission` (tenant block: `blocks:release`); `platform_admin_required` (global block).',
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): only a draft is released.',
    unprocessable: '`FLOW_FAILURE`: `gate` (`compile`/`sandbox`) and `issues`; nothing changed.',
  })
  release(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
  ): Promise<FlowBlockVersionResponse> {
    return this.commandBus.execute(new ReleaseFlowBlockVersionCommand(caller, flowBlockId, flowBlockVersionId));
  }

  @WriteById('post', ':flowBlockVersionId/deprecate', {
    operationId: 'flowBlockVersions_deprecate',
    permission: 'blocks:release',
    type: FlowBlockVersionResponse,
    description: '`deprecated`: unusable for new flow releases; released flows keep running it.',
    forbidden: '`missing_permission` (tenant block: `blocks:release`); `platform_admin_required` (global block).',
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): only a released version is deprecated.',
  })
  deprecate(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
  ): Promise<FlowBlockVersionResponse> {
    return this.commandBus.execute(new DeprecateFlowBlockVersionCommand(caller, flowBlockId, flowBlockVersionId));
  }
}
