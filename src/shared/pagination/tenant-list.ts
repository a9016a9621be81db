import type { TenantAccess } from '../access/access.service';

/**
 * A list's `q` as a filter. An empty `q` matches everything, so it is no filter at all: the same query, the same
 * cursor binding and the same page as leaving `q` out, in every list.
 */
export function searchTerm(q: string | null | undefined): string | null {
  return q ? q : null;
}

/** The steps of a list inside a tenant, each a separate concern, run by `runTenantList` in the one order. */
export interface TenantListSteps<R, T> {
  /** Request checks that need no database: the cursor's signature and binding, query rules (400). */
  validate: () => void;
  /** The caller's access to the tenant in the path (404 when it is missing or invisible). */
  tenant: () => Promise<TenantAccess>;
  /** 403 unless the caller may list here at all (usually `access.requireAnywhere(permission)`). */
  permission: (access: TenantAccess) => void;
  /** References named in the query (400 `reference_not_found`), resolved once the caller may list. */
  references?: (access: TenantAccess) => Promise<R>;
  /** The page itself. */
  query: (access: TenantAccess, references: R) => Promise<T>;
}

/**
 * Runs a tenant list in the check order every list shares: cursor and query validation, then the tenant's 404,
 * then the permission's 403, then the query's references, then the query. A cursor therefore binds the tenant
 * by its number (numbers are never reused), which is known before the lookup.
 */
export async function runTenantList<R = undefined, T = unknown>(steps: TenantListSteps<R, T>): Promise<T> {
  steps.validate();
  const access = await steps.tenant();
  steps.permission(access);
  const references = steps.references ? await steps.references(access) : (undefined as R);
  return steps.query(access, references);
}
