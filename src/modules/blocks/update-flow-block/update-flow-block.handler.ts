import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';
import { FlowBlockStore } from '../persistence/flow-block.store';
import { UpdateFlowBlockCommand } from './update-flow-block.command';

/** `name` and `description` of a block; global blocks only by platform administrators. */
@CommandHandler(UpdateFlowBlockCommand)
export class UpdateFlowBlockHandler implements ICommandHandler<UpdateFlowBlockCommand, FlowBlockResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ caller, flowBlockId, changes }: UpdateFlowBlockCommand): Promise<FlowBlockResponse> {
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const [before] = await tx.manager.query<{ name: string; description: string }[]>(
        `SELECT name, description FROM flow_blocks WHERE flow_block_id = $1 FOR UPDATE`,
        [flowBlockId],
      );
      const name = changes.name ?? before.name;
      const description = changes.description ?? before.description;
      await tx.manager.query(`UPDATE flow_blocks SET name = $2, description = $3, updated_at = clock_timestamp() WHERE flow_block_id = $1`, [
        flowBlockId,
        name,
        description,
      ]);
      const changed = Object.keys(changes).filter((key) => (changes as Record<string, unknown>)[key] !== undefined);
      await tx.audit({
        eventType: 'flow_block.updated',
        action: 'update',
        entityType: 'flow_block',
        entityId: flowBlockId,
        tenantId: resolved.block.tenantId,
        metadata: { changedFields: changed, ...(changes.name !== undefined ? { name: { before: before.name, after: name } } : {}) },
      });
      return this.store.response(tx.manager, flowBlockId);
    });
  }
}
