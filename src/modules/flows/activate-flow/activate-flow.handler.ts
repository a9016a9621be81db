import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { FlowRepository } from '../persistence/flow.repository';
import type { FlowResult } from '../dto/flow.response.dto';
import { FlowVersionStore } from '../persistence/flow-version.store';
import { ActivateFlowCommand } from './activate-flow.command';

const versionReferenceNotFound = () =>
  ValidationFailedError.single('body.flowVersionId', 'reference_not_found', 'This flow has no version with this id.');

/**
 * Points the flow at a released version under the flow's row lock and If-Match: of two parallel activations
 * one wins and the other sees the new ETag (409 `lock_version_mismatch`). A lower number than the active one is
 * a rollback and audited as such.
 */
@CommandHandler(ActivateFlowCommand)
export class ActivateFlowHandler implements ICommandHandler<ActivateFlowCommand, FlowResult> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
  ) {}

  async execute({ caller, flowId, expectedLockVersion, flowVersionId }: ActivateFlowCommand): Promise<FlowResult> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      try {
        await this.versions.findVersion(tx.manager, flowId, flowVersionId);
      } catch {
        throw versionReferenceNotFound();
      }
      await this.versions.activate(tx, flowId, flowVersionId, expectedLockVersion);
      return this.flows.result(tx.manager, flowId);
    });
  }
}
