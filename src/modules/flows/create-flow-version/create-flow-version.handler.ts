import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowVersionResponse } from '../dto/flow-version.response.dto';
import { FlowVersionStore } from '../persistence/flow-version.store';
import { graphSaveViolations, normalizeParameters, parameterSaveViolations } from '../domain/graph/flow-graph';
import { CreateFlowVersionCommand } from './create-flow-version.command';

/**
 * A new draft numbered max + 1 under the flow's lock (parallel creates never collide). Drafts are immutable like
 * every version: editing a flow means saving another draft.
 */
@CommandHandler(CreateFlowVersionCommand)
export class CreateFlowVersionHandler implements ICommandHandler<CreateFlowVersionCommand, FlowVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
  ) {}

  async execute({ caller, flowId, input }: CreateFlowVersionCommand): Promise<FlowVersionResponse> {
    const parameters = input.parameters ?? [];
    const shape = [...graphSaveViolations(input.graph, null), ...parameterSaveViolations(parameters)];
    if (shape.length > 0) throw new ValidationFailedError(shape);
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    const mismatch = graphSaveViolations(input.graph, flow.deviceTypeId);
    if (mismatch.length > 0) throw new ValidationFailedError(mismatch);

    return this.unitOfWork.run(async (tx) => {
      const version = await this.versions.create(tx, flowId, {
        tenant_id: flow.tenantId,
        graph: JSON.stringify(input.graph),
        parameters: JSON.stringify(normalizeParameters(parameters)),
      });
      return FlowVersionResponse.of(version);
    });
  }
}
