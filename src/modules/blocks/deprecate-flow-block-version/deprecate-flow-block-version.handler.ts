import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { FlowBlockVersionResponse } from '../dto/flow-block-version.response.dto';
import { FlowBlockStore } from '../persistence/flow-block.store';
import { DeprecateFlowBlockVersionCommand } from './deprecate-flow-block-version.command';

/** `released` -> `deprecated`: no new flow release may use it; released flows keep running it. */
@CommandHandler(DeprecateFlowBlockVersionCommand)
export class DeprecateFlowBlockVersionHandler implements ICommandHandler<DeprecateFlowBlockVersionCommand, FlowBlockVersionResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ caller, flowBlockId, flowBlockVersionId }: DeprecateFlowBlockVersionCommand): Promise<FlowBlockVersionResponse> {
    const resolved = await this.store.resolve(caller.principal, flowBlockId);
    this.store.authorize(caller.principal, resolved, caller.permission);
    const deprecated = await this.unitOfWork.run((tx) =>
      this.store.versions.transition(tx, flowBlockId, flowBlockVersionId, 'deprecate', async (version) => {
        await tx.manager.query(`UPDATE flow_block_versions SET status = 'deprecated', deprecated_at = clock_timestamp() WHERE flow_block_version_id = $1`, [
          flowBlockVersionId,
        ]);
        return { sourceSha256: String(version.row.source_sha256) };
      }),
    );
    return FlowBlockVersionResponse.of(deprecated.row);
  }
}
