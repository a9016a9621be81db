import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import type { Caller } from '../../../shared/access/require-permission';
import { resolveResource } from '../../../shared/access/resolve-resource';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { IngestionCredentialEntity } from './ingestion-credential.entity';

const notFound = () => new ResourceNotFoundError('ingestion_credential');

/**
 * A credential named in the path, for a caller who may manage it: a platform admin for any credential, a
 * tenant's `ingestion:manage` holder for that tenant's credentials. Anything else (a platform credential for a
 * tenant user, another tenant's credential, a missing one) is the same 404; a visible credential without the
 * permission is 403.
 */
@Injectable()
export class IngestionCredentialReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
  ) {}

  async resolve(caller: Caller, credentialId: string): Promise<IngestionCredentialEntity> {
    const load = () => this.dataSource.getRepository(IngestionCredentialEntity).findOneBy({ ingestionCredentialId: credentialId });
    if (caller.principal.isPlatformAdmin) {
      const row = await load();
      if (!row) throw notFound();
      return row;
    }
    const { resource, access } = await resolveResource(this.accessService, caller.principal, {
      load: async () => {
        const row = await load();
        return row && row.tenantId !== null ? { ...row, tenantId: row.tenantId } : null;
      },
      notFound,
    });
    access.require(caller.permission);
    return resource;
  }
}
