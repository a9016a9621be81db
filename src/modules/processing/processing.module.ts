import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { FlowsModule } from '../flows/flows.module';
import { IngestionModule } from '../ingestion/ingestion.module';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { FlowExecutionsController } from './executions/flow-executions.controller';
import { GetFlowExecutionHandler } from './executions/get-flow-execution/get-flow-execution.handler';
import { ListFlowExecutionsHandler } from './executions/list-flow-executions/list-flow-executions.handler';
import { IngestionBacklogMetrics } from './pipeline/ingestion-backlog-metrics';
import { IngestionProcessor } from './pipeline/ingestion-processor';
import { FlowMessageRunner } from './run/flow-message-runner';
import { processingMetricProviders } from './run/processing-metrics';

/**
 * Processing of stored uplinks: the live pipeline (IngestionProcessor) and the shared core that runs a stored
 * message through a stored flow version and records what it produced (FlowMessageRunner); the execution records
 * it leaves behind and replays of a flow over stored uplinks.
 */
@Module({
  imports: [PaginationModule, FlowsModule, TelemetryModule, IngestionModule],
  controllers: [FlowExecutionsController],
  providers: [FlowMessageRunner, IngestionProcessor, IngestionBacklogMetrics, ...processingMetricProviders, ListFlowExecutionsHandler, GetFlowExecutionHandler],
  exports: [FlowMessageRunner],
})
export class ProcessingModule {}
