import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowRepository } from '../persistence/flow.repository';
import { EndDebugCaptureCommand, GetDebugCaptureQuery, StartDebugCaptureCommand } from './debug-capture.commands';
import type { FlowDebugCaptureResponse } from './debug-capture.response.dto';
import { DebugCaptureStore } from './debug-capture.store';

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

@QueryHandler(GetDebugCaptureQuery)
export class GetDebugCaptureHandler implements IQueryHandler<GetDebugCaptureQuery, FlowDebugCaptureResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly captures: DebugCaptureStore,
  ) {}

  async execute({ caller, flowId }: GetDebugCaptureQuery): Promise<FlowDebugCaptureResponse> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    return this.captures.state(this.dataSource.manager, flowId);
  }
}
