import type { Principal } from '../auth/principal';
import { ResourceNotFoundError } from '../errors/domain-error';
import type { AccessService, TenantAccess } from './access.service';

export interface ResourceLookup<R extends { tenantId: string }> {
  /** Reads the resource (by path id); null when there is none. */
  load: () => Promise<R | null>;
  /** The resource's own 404, e.g. `new ResourceNotFoundError('device')`. */
  notFound: () => Error;
  /** Whether the caller's scope reaches the resource (org-scoped resources); tenant-wide ones omit it. */
  visible?: (access: TenantAccess, resource: R) => boolean;
}

/**
 * Loads a resource named in the path and resolves the caller's access to its tenant. A missing resource, one in
 * a tenant the caller holds no effective grant in, or one outside the caller's scope all answer exactly the
 * resource's own 404: an invisible tenant must not show through as `tenant`.
 */
export async function resolveResource<R extends { tenantId: string }>(
  accessService: AccessService,
  principal: Principal,
  lookup: ResourceLookup<R>,
): Promise<{ resource: R; access: TenantAccess }> {
  const resource = await lookup.load();
  if (!resource) throw lookup.notFound();
  let access: TenantAccess;
  try {
    access = await accessService.tenantById(principal, resource.tenantId);
  } catch (error) {
    if (error instanceof ResourceNotFoundError) throw lookup.notFound();
    throw error;
  }
  if (lookup.visible && !lookup.visible(access, resource)) throw lookup.notFound();
  return { resource, access };
}
