import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { FlowsModule } from '../flows';
import { IngestionModule } from '../ingestion';
import { TelemetryModule } from '../telemetry';
import { FlowExecutionsController } from './flow-executions.controller';
import { GetFlowExecutionHandler } from './get-flow-execution/get-flow-execution.handler';
import { ListFlowExecutionsHandler } from './list-flow-executions/list-flow-executions.handler';
import { IngestionBacklogMetrics } from './pipeline/ingestion-backlog-metrics';
import { IngestionProcessor } from './pipeline/ingestion-processor';
import { FlowMessageRunner } from './run/flow-message-runner';
import { processingMetricProviders } from './run/processing-metrics';
import { CancelReplayHandler } from './cancel-replay/cancel-replay.handler';
import { CreateReplayHandler } from './create-replay/create-replay.handler';
import { ReplayRepository } from './persistence/replay.repository';
import { FlowReplaysController } from './flow-replays.controller';
import { GetReplayHandler } from './get-replay/get-replay.handler';
import { ListReplaysHandler } from './list-replays/list-replays.handler';
import { RecoverReplaysHandler } from './run-replay/recover-replays.handler';
import { RunReplayHandler } from './run-replay/run-replay.handler';

/**
 * Processing of stored uplinks: the live pipeline (IngestionProcessor) and the shared core that runs a stored
 * message through a stored flow version and records what it produced (FlowMessageRunner); the execution records
 * it leaves behind and replays of a flow over stored uplinks.
 */
@Module({
  imports: [PaginationModule, FlowsModule, TelemetryModule, IngestionModule],
  controllers: [FlowExecutionsController, FlowReplaysController],
  providers: [
    FlowMessageRunner,
    IngestionProcessor,
    IngestionBacklogMetrics,
    ...processingMetricProviders,
    ListFlowExecutionsHandler,
    GetFlowExecutionHandler,
    ReplayRepository,
    CreateReplayHandler,
    ListReplaysHandler,
    GetReplayHandler,
    CancelReplayHandler,
    RunReplayHandler,
    RecoverReplaysHandler,
  ],
  exports: [FlowMessageRunner],
})
export class ProcessingModule {}
