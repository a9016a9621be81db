import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';
import { IngestionCredentialReader } from '../persistence/ingestion-credential.reader';
import { GetIngestionCredentialQuery } from './get-ingestion-credential.query';

@QueryHandler(GetIngestionCredentialQuery)
export class GetIngestionCredentialHandler implements IQueryHandler<GetIngestionCredentialQuery, IngestionCredentialResponse> {
  constructor(private readonly reader: IngestionCredentialReader) {}

  async execute({ caller, credentialId }: GetIngestionCredentialQuery): Promise<IngestionCredentialResponse> {
    return IngestionCredentialResponse.of(await this.reader.resolve(caller, credentialId));
  }
}
