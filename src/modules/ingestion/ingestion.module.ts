import { Module } from '@nestjs/common';
import { HealthModule } from '../../health/health.module';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import {
  CreateIngestionCredentialHandler,
  GetIngestionCredentialHandler,
  ListIngestionCredentialsHandler,
  ListTenantIngestionCredentialsHandler,
  RevokeIngestionCredentialHandler,
} from './credentials/ingestion-credential.handlers';
import { IngestionCredentialReader } from './persistence/ingestion-credential.reader';
import { IngestController } from './ingest.controller';
import { ingestionMetricProviders } from './ingest/ingestion-metrics';
import { IngestionTokenGuard } from './ingest/ingestion-token.guard';
import { RawMessageWriter } from './ingest/raw-message-writer';
import { UplinkIntake } from './ingest/uplink-intake';
import { IngestionCredentialsController } from './ingestion-credentials.controller';
import { MqttSubscriber } from './mqtt/mqtt-subscriber';
import { RawIngestionMessagesController } from './raw-ingestion-messages.controller';
import { RetentionJob } from './retention/retention.job';
import { RetentionSweeper } from './retention/retention-sweeper';
import { GetRawMessageHandler, ListRawMessagesHandler } from './raw-messages/raw-message.handlers';

/**
 * Ingestion credentials, the webhook endpoints and the MQTT subscriber with their durable group-committed raw
 * store, raw-message reads, and retention of raw messages, executions and dedup keys.
 */
@Module({
  imports: [PaginationModule, HealthModule],
  controllers: [IngestionCredentialsController, IngestController, RawIngestionMessagesController],
  providers: [
    IngestionCredentialReader,
    CreateIngestionCredentialHandler,
    RevokeIngestionCredentialHandler,
    GetIngestionCredentialHandler,
    ListTenantIngestionCredentialsHandler,
    ListIngestionCredentialsHandler,
    IngestionTokenGuard,
    ListRawMessagesHandler,
    GetRawMessageHandler,
    RawMessageWriter,
    RetentionSweeper,
    RetentionJob,
    UplinkIntake,
    MqttSubscriber,
    ...ingestionMetricProviders,
  ],
  exports: [RawMessageWriter],
})
export class IngestionModule {}
