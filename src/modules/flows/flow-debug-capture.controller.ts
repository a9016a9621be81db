import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { EndDebugCaptureCommand, GetDebugCaptureQuery, StartDebugCaptureCommand } from './debug-capture/debug-capture.commands';
import { FlowDebugCaptureResponse } from './debug-capture/debug-capture.response.dto';
import { StartDebugCaptureRequest } from './debug-capture/start-debug-capture.request.dto';

const NOT_FOUND = 'Missing, or in a tenant the caller has no effective grant in: one answer (`resourceType` `flow`).';
const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

@ApiTags('flows')
@ApiBearerAuth()
@Controller('v1/flows/:flowId/debug-capture')
export class FlowDebugCaptureController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Post()
  @OperationId('FlowDebugCaptureController_start')
  @HttpCode(200)
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: FlowDebugCaptureResponse, description: 'The new capture, active.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  start(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Body() body: StartDebugCaptureRequest): Promise<FlowDebugCaptureResponse> {
    return this.commandBus.execute(new StartDebugCaptureCommand(caller, flowId, body.minutes, body.maxExecutions));
  }

  @Get()
  @OperationId('FlowDebugCaptureController_get')
  @RequirePermission('flows:read')
  @ApiOkResponse({ type: FlowDebugCaptureResponse, description: 'The latest capture’s state (inactive, with nulls, when there never was one).' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string): Promise<FlowDebugCaptureResponse> {
    return this.queryBus.execute(new GetDebugCaptureQuery(caller, flowId));
  }

  @Delete()
  @OperationId('FlowDebugCaptureController_end')
  @HttpCode(200)
  @RequirePermission('flows:write')
  @ApiOkResponse({ type: FlowDebugCaptureResponse, description: 'The capture, no longer active.' })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  @ApiForbiddenResponse({ description: FORBIDDEN })
  end(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string): Promise<FlowDebugCaptureResponse> {
    return this.commandBus.execute(new EndDebugCaptureCommand(caller, flowId));
  }
}
