import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { IsNull } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowParameterOverrideEntity } from '../persistence/flow-parameter-override.entity';
import { deviceNotFound, overrideNotFound, ParameterOverrideRepository } from '../persistence/parameter-override.repository';
import { DeleteParameterOverrideCommand } from './delete-parameter-override.command';

/** Removes an override; the next level (or the default) applies again. */
@CommandHandler(DeleteParameterOverrideCommand)
export class DeleteParameterOverrideHandler implements ICommandHandler<DeleteParameterOverrideCommand, void> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly overrides: ParameterOverrideRepository,
  ) {}

  async execute({ caller, flowId, target, key }: DeleteParameterOverrideCommand): Promise<void> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    if (target.deviceId !== null && !(await this.overrides.deviceOfFlow(flow, target.deviceId))) throw deviceNotFound();
    const where = {
      tenantId: flow.tenantId,
      level: target.level,
      deviceTypeId: target.level === 'tenant' ? IsNull() : flow.deviceTypeId,
      deviceId: target.deviceId ?? IsNull(),
      key,
    };
    await this.unitOfWork.run(async (tx) => {
      const row = await tx.manager.findOne(FlowParameterOverrideEntity, { where, lock: { mode: 'pessimistic_write' } });
      if (!row) throw overrideNotFound();
      access.require(caller.permission);
      await tx.manager.delete(FlowParameterOverrideEntity, { parameterOverrideId: row.parameterOverrideId });
      await tx.audit({
        eventType: 'flow_parameter_override.deleted',
        action: 'delete',
        entityType: 'flow_parameter_override',
        entityId: row.parameterOverrideId,
        tenantId: flow.tenantId,
        metadata: { flowId, level: row.level, deviceTypeId: row.deviceTypeId, deviceId: row.deviceId, key },
      });
    });
  }
}
