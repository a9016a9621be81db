import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { NewestFirstPageParams } from '../../shared/pagination/newest-first-page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { CancelReplayCommand } from './cancel-replay/cancel-replay.command';
import { CreateReplayCommand } from './create-replay/create-replay.command';
import { CreateReplayRequest } from './dto/create-replay.request.dto';
import { ReplayPage, ReplayResponse } from './dto/replay.response.dto';
import { GetReplayQuery } from './get-replay/get-replay.query';
import { ListReplaysQuery } from './list-replays/list-replays.query';
import { ApiDocs } from '../../shared/http/route-docs';
import { FLOW_REPLAYS_DOCS } from './flow-replays.docs';
import { Route, WriteById } from '../../shared/http/routes';

const NOT_FOUND = 'The flow or the replay is missing, or in a tenant the caller has no effective grant in (`flow`, `flow_replay`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

/** Replays of a flow version over stored uplinks, run in the background. */
@ApiTags('flows')
@ApiBearerAuth()
@ApiDocs(FLOW_REPLAYS_DOCS)
@Controller('v1/flows/:flowId/replays')
export class FlowReplaysController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('post', '', {
    operationId: 'flowReplays_create',
    permission: 'flows:release',
    status: 202,
    type: ReplayResponse,
    location: '/v1/flows/{flowId}/replays/{replayId}',
    description: '`queued`; runs in the background. `Location: /v1/flows/{flowId}/replays/{replayId}`.',
    badRequest: 'Window rules on `body.from`/`body.to` (`range`, `max_span`); `reference_not_found` at `body.flowVersionId` or `body.deviceIds[n]`.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`replay_in_progress`: the flow has an unfinished replay; `version_not_released` (+`currentStatus`); `no_active_version`.',
  })
  create(
    @CurrentCaller() caller: Caller,
    @UuidParam('flowId') flowId: string,
    @Body() body: CreateReplayRequest,
  ): Promise<ReplayResponse> {
    return this.commandBus.execute(new CreateReplayCommand(caller, flowId, body));
  }

  @Route('get', '', {
    operationId: 'flowReplays_list',
    permission: 'flows:read',
    type: ReplayPage,
    description: 'Newest first by `createdAt`; no total.',
    notFound: NOT_FOUND,
  })
  list(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Query() params: NewestFirstPageParams): Promise<ReplayPage> {
    return this.queryBus.execute(new ListReplaysQuery(caller, flowId, params));
  }

  @Route('get', ':replayId', {
    operationId: 'flowReplays_get',
    permission: 'flows:read',
    type: ReplayResponse,
    description: 'With its progress counters and, for a dry run of another version than the active one, its diff.',
    notFound: NOT_FOUND,
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @UuidParam('replayId') replayId: string): Promise<ReplayResponse> {
    return this.queryBus.execute(new GetReplayQuery(caller, flowId, replayId));
  }

  @WriteById('post', ':replayId/cancel', {
    operationId: 'flowReplays_cancel',
    permission: 'flows:release',
    type: ReplayResponse,
    description: '`cancelled`; results committed before the cancellation stay.',
    forbidden: FORBIDDEN,
    notFound: NOT_FOUND,
    conflict: '`invalid_state` (+`currentStatus`): the replay has finished.',
  })
  cancel(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @UuidParam('replayId') replayId: string): Promise<ReplayResponse> {
    return this.commandBus.execute(new CancelReplayCommand(caller, flowId, replayId));
  }
}
