import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import {
  CreateIngestionCredentialHandler,
  GetIngestionCredentialHandler,
  ListIngestionCredentialsHandler,
  ListTenantIngestionCredentialsHandler,
  RevokeIngestionCredentialHandler,
} from './credentials/ingestion-credential.handlers';
import { IngestionCredentialReader } from './credentials/ingestion-credential.reader';
import { IngestionCredentialsController } from './ingestion-credentials.controller';

/** Ingestion credentials, the webhook endpoints with their durable group-committed raw store, raw-message reads. */
@Module({
  imports: [PaginationModule],
  controllers: [IngestionCredentialsController],
  providers: [
    IngestionCredentialReader,
    CreateIngestionCredentialHandler,
    RevokeIngestionCredentialHandler,
    GetIngestionCredentialHandler,
    ListTenantIngestionCredentialsHandler,
    ListIngestionCredentialsHandler,
  ],
})
export class IngestionModule {}
