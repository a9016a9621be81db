import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { normalizeParameters, parameterSaveViolations, templateGraphSaveViolations } from '../../flows';
import { FlowTemplateVersionResponse } from '../dto/flow-template-version.response.dto';
import { FlowTemplateStore } from '../persistence/flow-template.store';
import { CreateFlowTemplateVersionCommand } from './create-flow-template-version.command';

/**
 * A new draft numbered max + 1 under the template's lock, after the flows' save rules (400) with `deviceTypeId`
 * null. Drafts are immutable like every version: editing a template means saving another draft.
 */
@CommandHandler(CreateFlowTemplateVersionCommand)
export class CreateFlowTemplateVersionHandler implements ICommandHandler<CreateFlowTemplateVersionCommand, FlowTemplateVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowTemplateStore,
  ) {}

  async execute({ flowTemplateId, input }: CreateFlowTemplateVersionCommand): Promise<FlowTemplateVersionResponse> {
    const parameters = input.parameters ?? [];
    const violations = [...templateGraphSaveViolations(input.graph), ...parameterSaveViolations(parameters)];
    if (violations.length > 0) throw new ValidationFailedError(violations);
    await this.store.find(flowTemplateId);
    const version = await this.unitOfWork.run((tx) =>
      this.store.versions.create(tx, flowTemplateId, {
        graph: JSON.stringify(input.graph),
        parameters: JSON.stringify(normalizeParameters(parameters)),
      }),
    );
    return FlowTemplateVersionResponse.of(version);
  }
}
