import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';

export class GetIngestionCredentialQuery extends Query<IngestionCredentialResponse> {
  constructor(
    readonly caller: Caller,
    readonly credentialId: string,
  ) {
    super();
  }
}
