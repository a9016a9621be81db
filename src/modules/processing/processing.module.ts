import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ActionsModule } from '../actions';
import { DeviceTypesModule } from '../device-types';
import { FlowsModule } from '../flows';
import { IngestionModule } from '../ingestion';
import { TelemetryModule } from '../telemetry';
import { FlowExecutionsController } from './flow-executions.controller';
import { GetFlowExecutionHandler } from './get-flow-execution/get-flow-execution.handler';
import { ListFlowExecutionsHandler } from './list-flow-executions/list-flow-executions.handler';
import { IngestionBacklogMetrics } from './pipeline/ingestion-backlog-metrics';
import { IngestionProcessor } from './pipeline/ingestion-processor';
import { DeviceParameterResolver } from './run/device-parameter-resolver';
import { FlowExecutionStore } from './persistence/flow-execution.store';
import { FlowVersionLoader } from './run/flow-version-loader';
import { processingMetricProviders } from './run/processing-metrics';
import { StoredUplinkProcessor } from './run/stored-uplink-processor';
import { CancelReplayHandler } from './cancel-replay/cancel-replay.handler';
import { CreateReplayHandler } from './create-replay/create-replay.handler';
import { ReplayRepository } from './persistence/replay.repository';
import { FlowReplaysController } from './flow-replays.controller';
import { GetReplayHandler } from './get-replay/get-replay.handler';
import { ListReplaysHandler } from './list-replays/list-replays.handler';
import { RecoverReplaysHandler } from './run-replay/recover-replays.handler';
import { RunReplayHandler } from './run-replay/run-replay.handler';
import { ExecutionRetentionJob } from './retention/execution-retention.job';
import { ExecutionRetentionSweeper } from './retention/execution-retention-sweeper';

/**
 * Processing of stored uplinks: the live pipeline (IngestionProcessor) and the shared core that runs a stored
 * message through a stored flow version and records what it produced (StoredUplinkProcessor); the execution records
 * it leaves behind (and their retention) and replays of a flow over stored uplinks.
 */
@Module({
  imports: [PaginationModule, FlowsModule, TelemetryModule, IngestionModule, ActionsModule, DeviceTypesModule],
  controllers: [FlowExecutionsController, FlowReplaysController],
  providers: [
    FlowVersionLoader,
    DeviceParameterResolver,
    FlowExecutionStore,
    StoredUplinkProcessor,
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
    ExecutionRetentionSweeper,
    ExecutionRetentionJob,
  ],
  exports: [StoredUplinkProcessor],
})
export class ProcessingModule {}
