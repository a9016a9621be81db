import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { assertLockVersion } from '../../../shared/concurrency/if-match';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowEntity } from '../persistence/flow.entity';
import { FlowRepository } from '../persistence/flow.repository';
import type { FlowResult } from '../dto/flow.response.dto';
import { flowNotFound } from '../persistence/flow-version.store';
import { UpdateFlowCommand } from './update-flow.command';

/** Renames or redescribes a flow; every successful PATCH bumps the lockVersion (a new ETag). */
@CommandHandler(UpdateFlowCommand)
export class UpdateFlowHandler implements ICommandHandler<UpdateFlowCommand, FlowResult> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
  ) {}

  async execute({ caller, flowId, expectedLockVersion, changes }: UpdateFlowCommand): Promise<FlowResult> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const flow = await tx.manager.findOne(FlowEntity, { where: { flowId }, lock: { mode: 'pessimistic_write' } });
      if (!flow) throw flowNotFound();
      assertLockVersion(flow.lockVersion, expectedLockVersion);
      const changed: ('name' | 'description')[] = [];
      if (changes.name !== undefined && changes.name !== flow.name) changed.push('name');
      if (changes.description !== undefined && changes.description !== flow.description) changed.push('description');
      await tx.manager.update(
        FlowEntity,
        { flowId },
        {
          ...Object.fromEntries(changed.map((field) => [field, changes[field]])),
          lockVersion: flow.lockVersion + 1,
          updatedAt: () => 'clock_timestamp()',
        },
      );
      await tx.audit({
        eventType: 'flow.updated',
        action: 'update',
        entityType: 'flow',
        entityId: flowId,
        tenantId: flow.tenantId,
        metadata: {
          key: flow.key,
          changedFields: changed,
          ...(changed.includes('name') ? { name: { before: flow.name, after: changes.name } } : {}),
          lockVersion: { before: flow.lockVersion, after: flow.lockVersion + 1 },
        },
      });
      return this.flows.result(tx.manager, flowId);
    });
  }
}
