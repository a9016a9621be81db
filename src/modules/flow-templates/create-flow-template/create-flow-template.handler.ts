import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowTemplateResponse } from '../dto/flow-template.response.dto';
import { FLOW_TEMPLATE_CONSTRAINTS, FlowTemplateStore } from '../persistence/flow-template.store';
import { CreateFlowTemplateCommand } from './create-flow-template.command';

/** Inserts a template; its key is unique among all templates (409 `duplicate_key`, also for a lost race). */
@CommandHandler(CreateFlowTemplateCommand)
export class CreateFlowTemplateHandler implements ICommandHandler<CreateFlowTemplateCommand, FlowTemplateResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowTemplateStore,
  ) {}

  execute({ input }: CreateFlowTemplateCommand): Promise<FlowTemplateResponse> {
    return this.unitOfWork.run(
      async (tx) => {
        const [{ flow_template_id: flowTemplateId }] = await tx.manager.query<{ flow_template_id: string }[]>(
          `INSERT INTO flow_templates (key, name, description) VALUES ($1, $2, $3) RETURNING flow_template_id`,
          [input.key, input.name, input.description ?? ''],
        );
        await tx.audit({
          eventType: 'flow_template.created',
          action: 'create',
          entityType: 'flow_template',
          entityId: flowTemplateId,
          tenantId: null,
          metadata: { key: input.key, name: input.name },
        });
        return this.store.response(tx.manager, flowTemplateId);
      },
      { constraints: FLOW_TEMPLATE_CONSTRAINTS },
    );
  }
}
