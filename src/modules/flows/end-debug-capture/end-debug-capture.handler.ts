import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import type { FlowDebugCaptureResponse } from '../dto/debug-capture.response.dto';
import { DebugCaptureStore } from '../persistence/debug-capture.store';
import { FlowRepository } from '../persistence/flow.repository';
import { EndDebugCaptureCommand } from './end-debug-capture.command';

/** Ends the flow's active capture; audited `flow.debug_capture_ended` (nothing happens, and nothing is audited, without one). */
@CommandHandler(EndDebugCaptureCommand)
export class EndDebugCaptureHandler implements ICommandHandler<EndDebugCaptureCommand, FlowDebugCaptureResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly captures: DebugCaptureStore,
  ) {}

  async execute({ caller, flowId }: EndDebugCaptureCommand): Promise<FlowDebugCaptureResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const state = await this.unitOfWork.run(async (tx) => {
      const ended = await this.captures.end(tx.manager, flowId);
      if (!ended) return this.captures.state(tx.manager, flowId);
      await tx.audit({
        eventType: 'flow.debug_capture_ended',
        action: 'end_debug_capture',
        entityType: 'flow',
        entityId: flowId,
        tenantId: flow.tenantId,
        metadata: { capturedExecutions: ended.capturedExecutions, maxExecutions: ended.maxExecutions },
      });
      return ended;
    });
    this.captures.forget();
    return state;
  }
}
