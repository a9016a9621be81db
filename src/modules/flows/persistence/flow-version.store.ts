import { Injectable } from '@nestjs/common';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { CursorCodec } from '../../../shared/pagination/cursor-codec';
import { VersionStore } from '../../../shared/versioning/version-store';

export const flowNotFound = () => new ResourceNotFoundError('flow');
export const flowVersionNotFound = () => new ResourceNotFoundError('flow_version');

/** The flow's versions: numbered under the flow's row lock, immutable, `draft -> released -> deprecated`. */
@Injectable()
export class FlowVersionStore extends VersionStore {
  constructor(codec: CursorCodec) {
    super(
      {
        parentEntityType: 'flow',
        versionEntityType: 'flow_version',
        parent: { table: 'flows', id: 'flow_id', activeVersion: 'active_version_id', lockVersion: 'lock_version', tenant: 'tenant_id', updatedAt: 'updated_at' },
        version: { table: 'flow_versions', id: 'flow_version_id', parent: 'flow_id', number: 'version_number', status: 'status' },
        parentNotFound: flowNotFound,
        versionNotFound: flowVersionNotFound,
      },
      codec,
    );
  }
}
