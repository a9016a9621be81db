import { Module } from '@nestjs/common';
import { FlowsModule } from '../flows/flows.module';
import { IngestionModule } from '../ingestion/ingestion.module';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { IngestionBacklogMetrics } from './pipeline/ingestion-backlog-metrics';
import { IngestionProcessor } from './pipeline/ingestion-processor';
import { FlowMessageRunner } from './run/flow-message-runner';
import { processingMetricProviders } from './run/processing-metrics';

/**
 * Processing of stored uplinks: the live pipeline (IngestionProcessor) and the shared core that runs a stored
 * message through a stored flow version and records what it produced (FlowMessageRunner).
 */
@Module({
  imports: [FlowsModule, TelemetryModule, IngestionModule],
  providers: [FlowMessageRunner, IngestionProcessor, IngestionBacklogMetrics, ...processingMetricProviders],
  exports: [FlowMessageRunner],
})
export class ProcessingModule {}
