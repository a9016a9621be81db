import { Body, Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { ApiDocs } from '../../shared/http/route-docs';
import { ReadById, WriteById } from '../../shared/http/routes';
import { UuidParam } from '../../shared/validation/uuid-param';
import { FlowDebugCaptureResponse } from './dto/debug-capture.response.dto';
import { StartDebugCaptureRequest } from './dto/start-debug-capture.request.dto';
import { EndDebugCaptureCommand } from './end-debug-capture/end-debug-capture.command';
import { GetDebugCaptureQuery } from './get-debug-capture/get-debug-capture.query';
import { StartDebugCaptureCommand } from './start-debug-capture/start-debug-capture.command';
import { DEBUG_CAPTURE_SCHEMA_EXAMPLES, FLOW_DEBUG_CAPTURE_DOCS } from './flow-debug-capture.docs';

const FORBIDDEN = '`missing_permission`: needs the permission through a tenant-level grant.';

/** A bounded capture of full traces for a flow's live executions. */
@ApiTags('flows')
@ApiBearerAuth()
@ApiDocs(FLOW_DEBUG_CAPTURE_DOCS, { schemas: DEBUG_CAPTURE_SCHEMA_EXAMPLES })
@Controller('v1/flows/:flowId/debug-capture')
export class FlowDebugCaptureController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @WriteById('post', '', {
    operationId: 'flowDebugCaptures_start',
    permission: 'flows:write',
    type: FlowDebugCaptureResponse,
    description: 'The new capture, active.',
    forbidden: FORBIDDEN,
  })
  start(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string, @Body() body: StartDebugCaptureRequest): Promise<FlowDebugCaptureResponse> {
    return this.commandBus.execute(new StartDebugCaptureCommand(caller, flowId, body.minutes, body.maxExecutions));
  }

  @ReadById('', {
    operationId: 'flowDebugCaptures_get',
    permission: 'flows:read',
    type: FlowDebugCaptureResponse,
    description: 'The latest capture’s state (inactive, with nulls, when there never was one).',
    forbidden: FORBIDDEN,
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string): Promise<FlowDebugCaptureResponse> {
    return this.queryBus.execute(new GetDebugCaptureQuery(caller, flowId));
  }

  @WriteById('delete', '', {
    operationId: 'flowDebugCaptures_end',
    permission: 'flows:write',
    status: 200,
    type: FlowDebugCaptureResponse,
    description: 'The capture, no longer active.',
    forbidden: FORBIDDEN,
  })
  end(@CurrentCaller() caller: Caller, @UuidParam('flowId') flowId: string): Promise<FlowDebugCaptureResponse> {
    return this.commandBus.execute(new EndDebugCaptureCommand(caller, flowId));
  }
}
