import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import { Page } from '../../../shared/pagination/page';
import type { IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';
import { ListIngestionCredentialsParams, ListTenantIngestionCredentialsParams } from '../dto/ingestion-credential.request.dto';

export class ListTenantIngestionCredentialsQuery extends Query<Page<IngestionCredentialResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListTenantIngestionCredentialsParams,
  ) {
    super();
  }
}

export class ListIngestionCredentialsQuery extends Query<Page<IngestionCredentialResponse>> {
  constructor(
    readonly actorId: string,
    readonly params: ListIngestionCredentialsParams,
  ) {
    super();
  }
}
