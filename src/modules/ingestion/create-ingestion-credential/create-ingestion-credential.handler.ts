import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AccessService } from '../../../shared/access/access.service';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { IngestionCredentialEntity } from '../persistence/ingestion-credential.entity';
import { CreatedIngestionCredentialResponse, IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';
import { issueToken } from '../domain/ingestion-token';
import { CreateIngestionCredentialCommand } from './create-ingestion-credential.command';

/** A tenant holds at most this many active credentials (enough to rotate every network server). */
export const MAX_ACTIVE_TENANT_CREDENTIALS = 10;

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
