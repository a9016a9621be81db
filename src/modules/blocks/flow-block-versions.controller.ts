import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiProperty,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { NewestFirstPageResponse } from '../../shared/pagination/newest-first-page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { BlockGateReport, FlowBlockVersionResponse, FlowBlockVersionSummary } from './dto/flow-block-version.response.dto';
import { CompileFlowBlockVersionCommand } from './compile-flow-block-version/compile-flow-block-version.command';
import { CreateFlowBlockVersionCommand } from './create-flow-block-version/create-flow-block-version.command';
import { DeprecateFlowBlockVersionCommand } from './deprecate-flow-block-version/deprecate-flow-block-version.command';
import { ReleaseFlowBlockVersionCommand } from './release-flow-block-version/release-flow-block-version.command';
import { GetFlowBlockVersionQuery } from './get-flow-block-version/get-flow-block-version.query';
import { ListFlowBlockVersionsQuery } from './list-flow-block-versions/list-flow-block-versions.query';
import { CreateFlowBlockVersionRequest, ListFlowBlockVersionsParams } from './dto/flow-block-version.request.dto';

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
@Controller('v1/flow-blocks/:flowBlockId/versions')
export class FlowBlockVersionsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get()
  @OperationId('ListFlowBlockVersionsController_list')
  @RequirePermission('blocks:read')
  @ApiOkResponse({ type: FlowBlockVersionPage, description: 'Newest first by versionNumber; no `sourceCode`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: '`missing_permission`: a tenant block needs `blocks:read` through a tenant-level grant.' })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowBlockId') flowBlockId: string, @Query() params: ListFlowBlockVersionsParams): Promise<FlowBlockVersionPage> {
    return this.queryBus.execute(new ListFlowBlockVersionsQuery(caller, flowBlockId, params));
  }

  @Post()
  @OperationId('CreateFlowBlockVersionController_create')
  @RequirePermission('blocks:write')
  @ApiCreatedResponse({ type: FlowBlockVersionResponse, description: 'A `draft`; `Location: /v1/flow-blocks/{flowBlockId}/versions/{flowBlockVersionId}`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: WRITE_403 })
  async create(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @Body() body: CreateFlowBlockVersionRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FlowBlockVersionResponse> {
    const version = await this.commandBus.execute(new CreateFlowBlockVersionCommand(caller, flowBlockId, body));
    res.location(`/v1/flow-blocks/${flowBlockId}/versions/${version.flowBlockVersionId}`);
    return version;
  }

  @Get(':flowBlockVersionId')
  @OperationId('GetFlowBlockVersionController_get')
  @RequirePermission('blocks:read')
  @ApiOkResponse({ type: FlowBlockVersionResponse, description: 'With `sourceCode`, `artifact` and `gateReport`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: '`missing_permission`: a tenant block needs `blocks:read` through a tenant-level grant.' })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
  ): Promise<FlowBlockVersionResponse> {
    return this.queryBus.execute(new GetFlowBlockVersionQuery(caller, flowBlockId, flowBlockVersionId));
  }

  @Post(':flowBlockVersionId/compile')
  @OperationId('CompileFlowBlockVersionController_compile')
  @HttpCode(200)
  @RequirePermission('blocks:write')
  @ApiOkResponse({ type: FlowBlockCompileResult, description: 'The compile gate only; nothing changes, whatever the outcome.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: WRITE_403 })
  compile(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
  ): Promise<FlowBlockCompileResult> {
    return this.commandBus.execute(new CompileFlowBlockVersionCommand(caller, flowBlockId, flowBlockVersionId));
  }

  @Post(':flowBlockVersionId/release')
  @OperationId('ReleaseFlowBlockVersionController_release')
  @HttpCode(200)
  @RequirePermission('blocks:release')
  @ApiOkResponse({ type: FlowBlockVersionResponse, description: '`released`, with `artifact` and `gateReport`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: '`missing_permission` (tenant block: `blocks:release`); `platform_admin_required` (global block).' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): only a draft is released.' })
  @ApiUnprocessableEntityResponse({ description: '`FLOW_FAILURE`: `gate` (`compile`/`sandbox`) and `issues`; nothing changed.' })
  release(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
  ): Promise<FlowBlockVersionResponse> {
    return this.commandBus.execute(new ReleaseFlowBlockVersionCommand(caller, flowBlockId, flowBlockVersionId));
  }

  @Post(':flowBlockVersionId/deprecate')
  @OperationId('DeprecateFlowBlockVersionController_deprecate')
  @HttpCode(200)
  @RequirePermission('blocks:release')
  @ApiOkResponse({ type: FlowBlockVersionResponse, description: '`deprecated`: unusable for new flow releases; released flows keep running it.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: '`missing_permission` (tenant block: `blocks:release`); `platform_admin_required` (global block).' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): only a released version is deprecated.' })
  deprecate(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowBlockId') flowBlockId: string,
    @UuidParam('flowBlockVersionId') flowBlockVersionId: string,
  ): Promise<FlowBlockVersionResponse> {
    return this.commandBus.execute(new DeprecateFlowBlockVersionCommand(caller, flowBlockId, flowBlockVersionId));
  }
}
