import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import type { Permission } from '../../../shared/access/permissions';
import type { Principal } from '../../../shared/auth/principal';
import { AuthorizationFailedError, ConflictError, ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { CursorCodec } from '../../../shared/pagination/cursor-codec';
import { VersionStore } from '../../../shared/versioning/version-store';
import type { ScriptArtifact, ScriptContract } from '../../sandbox';
import { FlowBlockEntity } from './flow-block.entity';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';

/** A tenant holds at most 500 custom blocks. */
export const MAX_TENANT_BLOCKS = 500;

export const flowBlockNotFound = () => new ResourceNotFoundError('flow_block');
export const flowBlockVersionNotFound = () => new ResourceNotFoundError('flow_block_version');
export const duplicateBlockKey = () => new ConflictError('duplicate_key', 'A block with this key already exists in this scope.');

/** The migration's partial unique indexes on the key. */
export const FLOW_BLOCK_CONSTRAINTS = {
  flow_blocks_global_key_key: duplicateBlockKey,
  flow_blocks_tenant_key_key: duplicateBlockKey,
};

/** What the flow engine needs to run a block version in the sandbox. */
export interface RunnableBlockVersion {
  flowBlockVersionId: string;
  tenantId: string | null;
  status: 'released' | 'deprecated';
  artifact: ScriptArtifact;
}

/** A block named in the path, and the caller's access to its tenant (null for a global block). */
export interface ResolvedBlock {
  block: FlowBlockEntity;
  access: TenantAccess | null;
}

/**
 * Rows and visibility of custom blocks. A global block is visible to every signed-in caller and written only by
 * platform administrators; a tenant block is visible only through an effective grant in its tenant, and any
 * other caller gets exactly the 404 of a missing block.
 */
@Injectable()
export class FlowBlockStore {
  readonly versions: VersionStore;

  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    codec: CursorCodec,
  ) {
    this.versions = new VersionStore(
      {
        parentEntityType: 'flow_block',
        versionEntityType: 'flow_block_version',
        parent: { table: 'flow_blocks', id: 'flow_block_id', tenant: 'tenant_id' },
        version: { table: 'flow_block_versions', id: 'flow_block_version_id', parent: 'flow_block_id', number: 'version_number', status: 'status' },
        parentNotFound: flowBlockNotFound,
        versionNotFound: flowBlockVersionNotFound,
      },
      codec,
    );
  }

  async resolve(principal: Principal, flowBlockId: string): Promise<ResolvedBlock> {
    const block = await this.dataSource.manager.findOneBy(FlowBlockEntity, { flowBlockId });
    if (!block) throw flowBlockNotFound();
    if (block.tenantId === null) return { block, access: null };
    try {
      return { block, access: await this.accessService.tenantById(principal, block.tenantId) };
    } catch (error) {
      if (error instanceof ResourceNotFoundError) throw flowBlockNotFound();
      throw error;
    }
  }

  /**
   * 403 unless the caller may do `permission` on this block: on a tenant block the permission through a
   * tenant-level grant; on a global block reads are open and everything else needs a platform administrator.
   */
  authorize(principal: Principal, { access }: ResolvedBlock, permission: Permission): void {
    if (access) {
      access.require(permission);
      return;
    }
    if (permission === 'blocks:read' || principal.isPlatformAdmin) return;
    throw new AuthorizationFailedError('platform_admin_required', 'Global blocks are written only by platform administrators.');
  }

  async response(manager: EntityManager, flowBlockId: string): Promise<FlowBlockResponse> {
    const block = await manager.findOneBy(FlowBlockEntity, { flowBlockId });
    if (!block) throw flowBlockNotFound();
    const latest = await this.latestVersionNumbers(manager, [flowBlockId]);
    return FlowBlockResponse.of(block, latest.get(flowBlockId) ?? null);
  }

  async latestVersionNumbers(manager: EntityManager, flowBlockIds: string[]): Promise<Map<string, number>> {
    if (flowBlockIds.length === 0) return new Map();
    const rows = await manager.query<{ flow_block_id: string; latest: number }[]>(
      `SELECT flow_block_id, MAX(version_number) AS latest FROM flow_block_versions WHERE flow_block_id = ANY($1::uuid[]) GROUP BY flow_block_id`,
      [flowBlockIds],
    );
    return new Map(rows.map((row) => [row.flow_block_id, Number(row.latest)]));
  }

  /**
   * A released (or deprecated, for flows released with it) version as the sandbox runs it; null for a missing
   * version or a draft, which never runs outside its gates.
   */
  async runnableVersion(manager: EntityManager, flowBlockVersionId: string): Promise<RunnableBlockVersion | null> {
    const [row] = await manager.query<{ tenant_id: string | null; status: string; source_code: string; source_sha256: string; script_contract: ScriptContract }[]>(
      `SELECT tenant_id, status, source_code, source_sha256, script_contract FROM flow_block_versions
        WHERE flow_block_version_id = $1 AND status IN ('released', 'deprecated')`,
      [flowBlockVersionId],
    );
    if (!row) return null;
    return {
      flowBlockVersionId,
      tenantId: row.tenant_id,
      status: row.status as RunnableBlockVersion['status'],
      artifact: { format: 'uplink-script.v1', source: row.source_code, sha256: row.source_sha256, scriptContract: row.script_contract },
    };
  }

  /**
   * Serialises block creation per tenant (or among global blocks) for the rest of the transaction, so the count
   * checked against the limit cannot change before the insert commits.
   */
  async lockScope(manager: EntityManager, tenantId: string | null): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('flow_blocks'), hashtext($1))`, [tenantId ?? 'global']);
  }
}
