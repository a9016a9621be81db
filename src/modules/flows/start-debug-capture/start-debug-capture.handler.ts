import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import type { FlowDebugCaptureResponse } from '../dto/debug-capture.response.dto';
import { DebugCaptureStore } from '../persistence/debug-capture.store';
import { FlowRepository } from '../persistence/flow.repository';
import { StartDebugCaptureCommand } from './start-debug-capture.command';

/** Starts (or restarts, counts from zero) the flow's debug capture; audited `flow.debug_capture_started`. */
@CommandHandler(StartDebugCaptureCommand)
export class StartDebugCaptureHandler implements ICommandHandler<StartDebugCaptureCommand, FlowDebugCaptureResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly captures: DebugCaptureStore,
  ) {}

  async execute({ caller, flowId, minutes, maxExecutions }: StartDebugCaptureCommand): Promise<FlowDebugCaptureResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const state = await this.unitOfWork.run(async (tx) => {
      const started = await this.captures.start(tx.manager, flowId, flow.tenantId, minutes, maxExecutions);
      await tx.audit({
        eventType: 'flow.debug_capture_started',
        action: 'start_debug_capture',
        entityType: 'flow',
        entityId: flowId,
        tenantId: flow.tenantId,
        metadata: { minutes, maxExecutions, endsAt: started.endsAt },
      });
      return started;
    });
    this.captures.forget();
    return state;
  }
}
