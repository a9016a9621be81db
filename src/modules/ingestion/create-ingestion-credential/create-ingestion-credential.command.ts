import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Principal } from '../../../shared/auth/principal';
import type { CreatedIngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';
import { CreateIngestionCredentialRequest } from '../dto/ingestion-credential.request.dto';

/** A tenant credential (`tenantNumber` given, checked against `caller.permission`) or a platform one (null). */
export class CreateIngestionCredentialCommand extends Command<CreatedIngestionCredentialResponse> {
  constructor(
    readonly principal: Principal,
    readonly tenant: { tenantNumber: number; caller: Caller } | null,
    readonly input: CreateIngestionCredentialRequest,
  ) {
    super();
  }
}
