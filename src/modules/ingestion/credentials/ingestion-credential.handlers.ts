import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { ConflictError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import type { Page } from '../../../shared/pagination/page';
import { runTenantList } from '../../../shared/pagination/tenant-list';
import { IngestionCredentialEntity } from '../persistence/ingestion-credential.entity';
import { CreatedIngestionCredentialResponse, IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';
import { issueToken } from '../domain/ingestion-token';
import {
  CreateIngestionCredentialCommand,
  GetIngestionCredentialQuery,
  ListIngestionCredentialsQuery,
  ListTenantIngestionCredentialsQuery,
  RevokeIngestionCredentialCommand,
} from './ingestion-credential.commands';
import { IngestionCredentialReader } from '../persistence/ingestion-credential.reader';

/** A tenant holds at most this many active credentials (enough to rotate every network server). */
export const MAX_ACTIVE_TENANT_CREDENTIALS = 10;
const KEYS = { createdAt: 'c.created_at', id: 'c.ingestion_credential_id' };

/** A new credential and its token, shown in this answer only; a tenant's eleventh active one is 409. */
@CommandHandler(CreateIngestionCredentialCommand)
export class CreateIngestionCredentialHandler implements ICommandHandler<CreateIngestionCredentialCommand, CreatedIngestionCredentialResponse> {
  constructor(
    private readonly accessService: AccessService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute({ principal, tenant, input }: CreateIngestionCredentialCommand): Promise<CreatedIngestionCredentialResponse> {
    let tenantId: string | null = null;
    if (tenant) {
      const access = await this.accessService.tenantByNumber(principal, tenant.tenantNumber);
      access.require(tenant.caller.permission);
      tenantId = access.tenant.tenantId;
    }
    const issued = issueToken();
    return this.unitOfWork.run(async (tx) => {
      if (tenantId) {
        // The tenant row lock serialises concurrent creates, so the count cannot be raced past the limit.
        await tx.manager.query(`SELECT 1 FROM tenants WHERE tenant_id = $1 FOR UPDATE`, [tenantId]);
        const [{ count }] = await tx.manager.query<{ count: number }[]>(
          `SELECT count(*)::int AS count FROM ingestion_credentials WHERE tenant_id = $1 AND status = 'active'`,
          [tenantId],
        );
        if (count >= MAX_ACTIVE_TENANT_CREDENTIALS) {
          throw new ConflictError(
            'max_credentials',
            `A tenant holds at most ${MAX_ACTIVE_TENANT_CREDENTIALS} active ingestion credentials; revoke one first.`,
            { limit: MAX_ACTIVE_TENANT_CREDENTIALS },
          );
        }
      }
      const [row] = await tx.manager.query<{ ingestion_credential_id: string }[]>(
        `INSERT INTO ingestion_credentials (scope, tenant_id, name, token_sha256, token_prefix, created_by)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ingestion_credential_id`,
        [tenantId ? 'tenant' : 'platform', tenantId, input.name, issued.sha256, issued.prefix, principal.userId],
      );
      const credential = await tx.manager.findOneByOrFail(IngestionCredentialEntity, { ingestionCredentialId: row!.ingestion_credential_id });
      await tx.audit({
        eventType: 'ingestion_credential.created',
        action: 'create',
        entityType: 'ingestion_credential',
        entityId: credential.ingestionCredentialId,
        tenantId,
        metadata: { scope: credential.scope, name: credential.name, tokenPrefix: credential.tokenPrefix },
      });
      return { ...IngestionCredentialResponse.of(credential), token: issued.token };
    });
  }
}

/**
 * `active` -> `revoked`, terminal. Credentials are never cached: every replica reads the status on each
 * ingestion request, so the next request with the token is refused.
 */
@CommandHandler(RevokeIngestionCredentialCommand)
export class RevokeIngestionCredentialHandler implements ICommandHandler<RevokeIngestionCredentialCommand, IngestionCredentialResponse> {
  constructor(
    private readonly reader: IngestionCredentialReader,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async execute({ caller, credentialId }: RevokeIngestionCredentialCommand): Promise<IngestionCredentialResponse> {
    await this.reader.resolve(caller, credentialId);
    return this.unitOfWork.run(async (tx) => {
      const [current] = await tx.manager.query<{ status: string }[]>(
        `SELECT status FROM ingestion_credentials WHERE ingestion_credential_id = $1 FOR UPDATE`,
        [credentialId],
      );
      if (current?.status !== 'active') {
        throw new ConflictError('invalid_state', 'The ingestion credential is already revoked.', { currentStatus: current?.status ?? 'revoked' });
      }
      await tx.manager.query(
        `UPDATE ingestion_credentials SET status = 'revoked', revoked_at = clock_timestamp() WHERE ingestion_credential_id = $1`,
        [credentialId],
      );
      const credential = await tx.manager.findOneByOrFail(IngestionCredentialEntity, { ingestionCredentialId: credentialId });
      await tx.audit({
        eventType: 'ingestion_credential.revoked',
        action: 'revoke',
        entityType: 'ingestion_credential',
        entityId: credentialId,
        tenantId: credential.tenantId,
        metadata: { scope: credential.scope, name: credential.name, tokenPrefix: credential.tokenPrefix },
      });
      return IngestionCredentialResponse.of(credential);
    });
  }
}

@QueryHandler(GetIngestionCredentialQuery)
export class GetIngestionCredentialHandler implements IQueryHandler<GetIngestionCredentialQuery, IngestionCredentialResponse> {
  constructor(private readonly reader: IngestionCredentialReader) {}

  async execute({ caller, credentialId }: GetIngestionCredentialQuery): Promise<IngestionCredentialResponse> {
    return IngestionCredentialResponse.of(await this.reader.resolve(caller, credentialId));
  }
}

/** The tenant's credentials, "Ascending" family, filtered by `status`. */
@QueryHandler(ListTenantIngestionCredentialsQuery)
export class ListTenantIngestionCredentialsHandler
  implements IQueryHandler<ListTenantIngestionCredentialsQuery, Page<IngestionCredentialResponse>>
{
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ caller, tenantNumber, params }: ListTenantIngestionCredentialsQuery): Promise<Page<IngestionCredentialResponse>> {
    const status = params.status ?? null;
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/ingestion-credentials`,
      filters: { status },
      limit: params.limit,
      cursor: params.cursor,
    };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.require(caller.permission),
      query: async (access) => {
        const query = this.dataSource
          .getRepository(IngestionCredentialEntity)
          .createQueryBuilder('c')
          .where('c.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        if (status) query.andWhere('c.status = :status', { status });
        const page = await this.paginator.ascending(query, KEYS, pageRequest);
        return { ...page, items: page.items.map((row) => IngestionCredentialResponse.of(row)) };
      },
    });
  }
}

/** Every credential of every scope for platform admins, "Ascending" family. */
@QueryHandler(ListIngestionCredentialsQuery)
export class ListIngestionCredentialsHandler implements IQueryHandler<ListIngestionCredentialsQuery, Page<IngestionCredentialResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ actorId, params }: ListIngestionCredentialsQuery): Promise<Page<IngestionCredentialResponse>> {
    const filters = { status: params.status ?? null, scope: params.scope ?? null, tenantId: params.tenantId?.toLowerCase() ?? null };
    const pageRequest = { actorId, scope: 'ingestion-credentials', filters, limit: params.limit, cursor: params.cursor };
    this.paginator.verify(pageRequest);
    const query = this.dataSource.getRepository(IngestionCredentialEntity).createQueryBuilder('c');
    if (filters.tenantId) {
      const [tenant] = await this.dataSource.query<unknown[]>(`SELECT 1 FROM tenants WHERE tenant_id = $1`, [filters.tenantId]);
      if (!tenant) throw ValidationFailedError.single('query.tenantId', 'reference_not_found', 'No tenant has this id.');
      query.andWhere('c.tenant_id = :tenantId', { tenantId: filters.tenantId });
    }
    if (filters.status) query.andWhere('c.status = :status', { status: filters.status });
    if (filters.scope) query.andWhere('c.scope = :scope', { scope: filters.scope });
    const page = await this.paginator.ascending(query, KEYS, pageRequest);
    return { ...page, items: page.items.map((row) => IngestionCredentialResponse.of(row)) };
  }
}
