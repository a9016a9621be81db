import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { DeprecateFlowTemplateVersionCommand } from './deprecate-flow-template-version.command';

/** `released -> deprecated`: no longer copied; flow versions copied from it keep their graph and their provenance. */
@CommandHandler(DeprecateFlowTemplateVersionCommand)
export class DeprecateFlowTemplateVersionHandler implements ICommandHandler<DeprecateFlowTemplateVersionCommand, FlowTemplateVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowTemplateStore,
  ) {}

  async execute({ flowTemplateId, flowTemplateVersionId }: DeprecateFlowTemplateVersionCommand): Promise<FlowTemplateVersionResponse> {
    await this.store.find(flowTemplateId);
    const deprecated = await this.unitOfWork.run((tx) =>
      this.store.versions.transition(tx, flowTemplateId, flowTemplateVersionId, 'deprecate', async () => {
        await tx.manager.query(`UPDATE flow_template_versions SET deprecated_at = clock_timestamp() WHERE flow_template_version_id = $1`, [flowTemplateVersionId]);
      }),
    );
    return FlowTemplateVersionResponse.of(deprecated);
  }
}
