import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowRepository } from '../persistence/flow.repository';
import { FlowVersionResponse } from '../dto/flow-version.response.dto';
import { FlowVersionStore } from '../persistence/flow-version.store';
import { DeprecateFlowVersionCommand } from './deprecate-flow-version.command';

/** `released -> deprecated` (terminal). An active version stays active, but can no longer be activated again. */
@CommandHandler(DeprecateFlowVersionCommand)
export class DeprecateFlowVersionHandler implements ICommandHandler<DeprecateFlowVersionCommand, FlowVersionResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly versions: FlowVersionStore,
  ) {}

  async execute({ caller, flowId, flowVersionId }: DeprecateFlowVersionCommand): Promise<FlowVersionResponse> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    await this.versions.findVersion(this.dataSource.manager, flowId, flowVersionId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      const version = await this.versions.transition(tx, flowId, flowVersionId, 'deprecate', async () => {
        await tx.manager.query(`UPDATE flow_versions SET deprecated_at = clock_timestamp() WHERE flow_version_id = $1`, [flowVersionId]);
      });
      return FlowVersionResponse.of(version);
    });
  }
}
