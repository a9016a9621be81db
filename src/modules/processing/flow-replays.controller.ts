import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiAcceptedResponse, ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { NewestFirstPageParams } from '../../shared/pagination/newest-first-page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { CancelReplayCommand } from './cancel-replay/cancel-replay.command';
import { CreateReplayCommand } from './create-replay/create-replay.command';
import { CreateReplayRequest } from './dto/create-replay.request.dto';
import { ReplayPage, ReplayResponse } from './dto/replay.response.dto';
import { GetReplayQuery } from './get-replay/get-replay.query';
import { ListReplaysQuery } from './list-replays/list-replays.query';

const NOT_FOUND = 'The flow or the replay is missing, or in a tenant the caller has no effective grant in (`flow`, `flow_replay`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

/** Replays of a flow version over stored uplinks, run in the background. */
@ApiTags('flows')
@ApiBearerAuth()
@Controller('v1/flows/:flowId/replays')
export class FlowReplaysController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Post()
  @OperationId('CreateReplayController_create')
  @HttpCode(202)
  @RequirePermission('flows:release')
  @ApiAcceptedResponse({ type: ReplayResponse, description: '`queued`; runs in the background. `Location: /v1/flows/{flowId}/replays/{replayId}`.' })
  @ApiBadRequestResponse({ description: 'Window rules on `body.from`/`body.to` (`range`, `max_span`); `reference_not_found` at `body.flowVersionId` or `body.deviceIds[n]`.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`replay_in_progress`: the flow has an unfinished replay; `version_not_released` (+`currentStatus`); `no_active_version`.' })
  async create(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @Body() body: CreateReplayRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReplayResponse> {
    const replay = await this.commandBus.execute(new CreateReplayCommand(caller, flowId, body));
    res.location(`/v1/flows/${flowId}/replays/${replay.replayId}`);
    return replay;
  }

  @Get()
  @OperationId('ListReplaysController_list')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ReplayPage, description: 'Newest first by `createdAt`; no total.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: NewestFirstPageParams): Promise<ReplayPage> {
    return this.queryBus.execute(new ListReplaysQuery(caller, flowId, params));
  }

  @Get(':replayId')
  @OperationId('GetReplayController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: ReplayResponse, description: 'With its progress counters and, for a dry run of another version than the active one, its diff.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @UuidParam('replayId') replayId: string): Promise<ReplayResponse> {
    return this.queryBus.execute(new GetReplayQuery(caller, flowId, replayId));
  }

  @Post(':replayId/cancel')
  @OperationId('CancelReplayController_cancel')
  @HttpCode(200)
  @RequirePermission('flows:release')
  @ApiOkResponse({ type: ReplayResponse, description: '`cancelled`; results committed before the cancellation stay.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): the replay has finished.' })
  cancel(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @UuidParam('replayId') replayId: string): Promise<ReplayResponse> {
    return this.commandBus.execute(new CancelReplayCommand(caller, flowId, replayId));
  }
}
