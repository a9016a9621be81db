import { Module } from '@nestjs/common';
import { HealthModule } from '../../health/health.module';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { CreateIngestionCredentialHandler } from './create-ingestion-credential/create-ingestion-credential.handler';
import { GetIngestionCredentialHandler } from './get-ingestion-credential/get-ingestion-credential.handler';
import { ListIngestionCredentialsHandler, ListTenantIngestionCredentialsHandler } from './list-ingestion-credentials/list-ingestion-credentials.handler';
import { RevokeIngestionCredentialHandler } from './revoke-ingestion-credential/revoke-ingestion-credential.handler';
import { IngestionCredentialReader } from './persistence/ingestion-credential.reader';
import { IngestController } from './ingest.controller';
import { ingestionMetricProviders } from './ingest/ingestion-metrics';
import { IngestFastPath } from './ingest/ingest-fast-path';
import { IngestRequests } from './ingest/ingest-requests';
import { IngestionAuthenticator, IngestionTokenGuard } from './ingest/ingestion-token.guard';
import { RawMessageWriter } from './ingest/raw-message-writer';
import { UplinkIntake } from './ingest/uplink-intake';
import { IngestionCredentialsController } from './ingestion-credentials.controller';
import { MqttSubscriber } from './mqtt/mqtt-subscriber';
import { RawIngestionMessagesController } from './raw-ingestion-messages.controller';
import { RetentionJob } from './retention/retention.job';
import { RetentionSweeper } from './retention/retention-sweeper';
import { GetRawMessageHandler } from './get-raw-message/get-raw-message.handler';
import { ListRawMessagesHandler } from './list-raw-messages/list-raw-messages.handler';
import { RawMessageOutcomes } from './persistence/raw-message-outcomes';
import { RawMessagePins } from './persistence/raw-message-pins';
import { RawMessageReader } from './persistence/raw-message-reader';

/**
 * Ingestion credentials, the webhook endpoints and the MQTT subscriber with their durable group-committed raw
 * store, raw-message reads (and the outcomes processing records), and retention of raw messages and dedup keys.
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
    IngestionAuthenticator,
    IngestionTokenGuard,
    IngestRequests,
    IngestFastPath,
    ListRawMessagesHandler,
    GetRawMessageHandler,
    RawMessageWriter,
    RawMessageOutcomes,
    RawMessagePins,
    RawMessageReader,
    RetentionSweeper,
    RetentionJob,
    UplinkIntake,
    MqttSubscriber,
    ...ingestionMetricProviders,
  ],
  exports: [RawMessageWriter, RawMessageOutcomes, RawMessagePins, RawMessageReader, IngestFastPath],
})
export class IngestionModule {}
