import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';

export class RevokeIngestionCredentialCommand extends Command<IngestionCredentialResponse> {
  constructor(
    readonly caller: Caller,
    readonly credentialId: string,
  ) {
    super();
  }
}
