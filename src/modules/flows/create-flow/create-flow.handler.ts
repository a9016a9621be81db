import { randomUUID } from 'node:crypto';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DeviceTypeReader } from '../../device-types';
import { FlowEntity } from '../persistence/flow.entity';
import { FLOW_CONSTRAINTS, FlowRepository, duplicateFlowKey, flowExists } from '../persistence/flow.repository';
import type { FlowResult } from '../dto/flow.response.dto';
import { FlowVersionStore } from '../persistence/flow-version.store';
import { initialGraph } from '../domain/graph/flow-graph';
import { CreateFlowCommand } from './create-flow.command';

/**
 * The device type's single flow and its first draft (version 1: the two output nodes, no edges, no parameters),
 * in one transaction: there is never a flow without a version.
 */
@CommandHandler(CreateFlowCommand)
export class CreateFlowHandler implements ICommandHandler<CreateFlowCommand, FlowResult> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly deviceTypes: DeviceTypeReader,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
  ) {}

  async execute({ caller, deviceTypeId, input }: CreateFlowCommand): Promise<FlowResult> {
    const { access, deviceType } = await this.deviceTypes.resolve(caller.principal, deviceTypeId);
    access.require(caller.permission);
    const { tenantId } = deviceType;
    return this.unitOfWork.run(
      async (tx) => {
        if (await tx.manager.existsBy(FlowEntity, { deviceTypeId })) throw flowExists();
        if (await tx.manager.existsBy(FlowEntity, { tenantId, key: input.key })) throw duplicateFlowKey();
        const flowId = randomUUID();
        await tx.manager.insert(FlowEntity, { flowId, tenantId, deviceTypeId, key: input.key, name: input.name, description: input.description ?? '' });
        await tx.audit({
          eventType: 'flow.created',
          action: 'create',
          entityType: 'flow',
          entityId: flowId,
          tenantId,
          metadata: { deviceTypeId, key: input.key, name: input.name },
        });
        await this.versions.create(tx, flowId, { tenant_id: tenantId, graph: JSON.stringify(initialGraph(deviceTypeId)), parameters: '[]' });
        return this.flows.result(tx.manager, flowId);
      },
      { constraints: FLOW_CONSTRAINTS },
    );
  }
}
