import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowTemplateResponse } from '../dto/flow-template.response.dto';
import { flowTemplateNotFound, FlowTemplateStore } from '../persistence/flow-template.store';
import { UpdateFlowTemplateCommand } from './update-flow-template.command';

/** `name` and `description` of a template; the key is immutable. */
@CommandHandler(UpdateFlowTemplateCommand)
export class UpdateFlowTemplateHandler implements ICommandHandler<UpdateFlowTemplateCommand, FlowTemplateResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowTemplateStore,
  ) {}

  execute({ flowTemplateId, changes }: UpdateFlowTemplateCommand): Promise<FlowTemplateResponse> {
    return this.unitOfWork.run(async (tx) => {
      const [before] = await tx.manager.query<{ name: string; description: string }[]>(
        `SELECT name, description FROM flow_templates WHERE flow_template_id = $1 FOR UPDATE`,
        [flowTemplateId],
      );
      if (!before) throw flowTemplateNotFound();
      const name = changes.name ?? before.name;
      const description = changes.description ?? before.description;
      await tx.manager.query(`UPDATE flow_templates SET name = $2, description = $3, updated_at = clock_timestamp() WHERE flow_template_id = $1`, [
        flowTemplateId,
        name,
        description,
      ]);
      const changed = Object.keys(changes).filter((key) => (changes as Record<string, unknown>)[key] !== undefined);
      await tx.audit({
        eventType: 'flow_template.updated',
        action: 'update',
        entityType: 'flow_template',
        entityId: flowTemplateId,
        tenantId: null,
        metadata: { changedFields: changed, ...(changes.name !== undefined ? { name: { before: before.name, after: name } } : {}) },
      });
      return this.store.response(tx.manager, flowTemplateId);
    });
  }
}
