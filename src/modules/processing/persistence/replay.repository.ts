import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { FlowReplayEntity } from './flow-replay.entity';
import { replayNotFound } from '../domain/replay.errors';

/** Replay rows of one flow; another flow's replay is the replay's 404. */
@Injectable()
export class ReplayRepository {
  async find(manager: EntityManager, flowId: string, replayId: string): Promise<FlowReplayEntity> {
    const row = await manager.findOneBy(FlowReplayEntity, { replayId, flowId });
    if (!row) throw replayNotFound();
    return row;
  }

  /** The row FOR UPDATE, in `manager`'s transaction. */
  async lock(manager: EntityManager, flowId: string, replayId: string): Promise<FlowReplayEntity> {
    const row = await manager
      .getRepository(FlowReplayEntity)
      .createQueryBuilder('r')
      .setLock('pessimistic_write')
      .where('r.replay_id = :replayId AND r.flow_id = :flowId', { replayId, flowId })
      .getOne();
    if (!row) throw replayNotFound();
    return row;
  }
}
