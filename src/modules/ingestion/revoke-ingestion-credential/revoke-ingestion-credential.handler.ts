import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AuthCache } from '../../../shared/auth/auth-cache';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { IngestionCredentialEntity } from '../persistence/ingestion-credential.entity';
import { IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';
import { IngestionCredentialReader } from '../persistence/ingestion-credential.reader';
import { RevokeIngestionCredentialCommand } from './revoke-ingestion-credential.command';

/**
 * `active` -> `revoked`, terminal. The revoke invalidates the credential in the authorization cache within its
 * transaction: this replica refuses the token's next request, every other one once the commit's notification
 * reaches it.
 */
@CommandHandler(RevokeIngestionCredentialCommand)
export class RevokeIngestionCredentialHandler implements ICommandHandler<RevokeIngestionCredentialCommand, IngestionCredentialResponse> {
  constructor(
    private readonly reader: IngestionCredentialReader,
    private readonly unitOfWork: UnitOfWork,
    private readonly authCache: AuthCache,
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
      await this.authCache.invalidate(tx.manager, { ingestionCredentialId: credentialId });
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
