import type { EntityManager } from 'typeorm';
import type { ScriptArtifact, ScriptContract } from '../../../sandbox';

/** What flow validation needs to know of a custom block version. */
export interface CustomBlockVersionInfo {
  flowBlockVersionId: string;
  /** null for a global block. */
  tenantId: string | null;
  status: 'draft' | 'released' | 'deprecated';
  /** JSON Schema (2020-12) of the node's configuration. */
  configurationSchema: Record<string, unknown>;
  /** The compiled script a preview or fixture run invokes; absent or null: the node fails with `block_unavailable`. */
  artifact?: ScriptArtifact | null;
  scriptContract?: ScriptContract | null;
}

/** The custom-block catalog as flow validation sees it (bound to `BLOCK_VERSION_LOOKUP` in the flows module). */
export interface BlockVersionLookup {
  /**
   * The versions among `ids` (lower-case) that exist, keyed by id; a missing id is simply absent. Reads through
   * `manager`: the caller may be inside a transaction (the release gate), where a second pool connection is banned.
   */
  findVersions(manager: EntityManager, ids: readonly string[]): Promise<Map<string, CustomBlockVersionInfo>>;
}

export const BLOCK_VERSION_LOOKUP = Symbol('BlockVersionLookup');

// E-mail templates are the actions module's: flow validation reads them through its lookup.
export { EMAIL_TEMPLATE_LOOKUP, type EmailTemplateInfo, type EmailTemplateLookup } from '../../../actions';
