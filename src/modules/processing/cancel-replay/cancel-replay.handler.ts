import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { Move, StatusTransitions } from '../../../shared/state/status-transitions';
import { FlowRepository } from '../../flows';
import { FlowReplayEntity, ReplayStatus } from '../persistence/flow-replay.entity';
import { ReplayRepository } from '../persistence/replay.repository';
import { ReplayResponse } from '../dto/replay.response.dto';
import { CancelReplayCommand } from './cancel-replay.command';

/** `queued`/`running` → `cancelled`; a finished replay is 409 `invalid_state`. */
const CANCEL_MOVES: readonly Move<ReplayStatus, 'cancel'>[] = [
  { from: 'queued', action: 'cancel', to: 'cancelled', event: 'cancelled' },
  { from: 'running', action: 'cancel', to: 'cancelled', event: 'cancelled' },
];
const transitions = new StatusTransitions<ReplayStatus, 'cancel'>('flow_replay', CANCEL_MOVES);

/**
 * Cancels a replay under its row lock. The replay job commits each batch under the same lock and only while the
 * replay is `running`, so no batch commits after the cancellation; what was committed before it stays.
 */
@CommandHandler(CancelReplayCommand)
export class CancelReplayHandler implements ICommandHandler<CancelReplayCommand, ReplayResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly flows: FlowRepository,
    private readonly replays: ReplayRepository,
  ) {}

  async execute({ caller, flowId, replayId }: CancelReplayCommand): Promise<ReplayResponse> {
    const { access, flow } = await this.flows.resolve(caller.principal, flowId);
    // The replay's 404 comes before the permission's 403.
    await this.replays.find(this.dataSource.manager, flowId, replayId);
    access.require(caller.permission);
    return this.unitOfWork.run(async (tx) => {
      await transitions.apply(tx, {
        action: 'cancel',
        lock: () => this.replays.lock(tx.manager, flowId, replayId),
        update: async (row, move) => {
          await tx.manager.query(`UPDATE flow_replays SET status = $2, finished_at = clock_timestamp() WHERE replay_id = $1`, [replayId, move.to]);
          return { flowId, processedMessages: row.processedMessages, totalMessages: row.totalMessages };
        },
        entityId: replayId,
        tenantId: flow.tenantId,
      });
      return ReplayResponse.of(await tx.manager.findOneByOrFail(FlowReplayEntity, { replayId }));
    });
  }
}
