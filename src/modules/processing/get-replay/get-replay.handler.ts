import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { FlowRepository } from '../../flows';
import { ReplayRepository } from '../persistence/replay.repository';
import { ReplayResponse } from '../dto/replay.response.dto';
import { GetReplayQuery } from './get-replay.query';

/** One replay of the flow with its progress (and diff); another flow's replay is the replay's 404. */
@QueryHandler(GetReplayQuery)
export class GetReplayHandler implements IQueryHandler<GetReplayQuery, ReplayResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly flows: FlowRepository,
    private readonly replays: ReplayRepository,
  ) {}

  async execute({ caller, flowId, replayId }: GetReplayQuery): Promise<ReplayResponse> {
    const { access } = await this.flows.resolve(caller.principal, flowId);
    const replay = await this.replays.find(this.dataSource.manager, flowId, replayId);
    access.require(caller.permission);
    return ReplayResponse.of(replay);
  }
}
