/** Tenant roles, permissions and the scope each permission is evaluated at. */
export const TENANT_ROLES = ['tenant_admin', 'tenant_operator', 'tenant_viewer'] as const;
export type TenantRole = (typeof TENANT_ROLES)[number];

/**
 * `T`: needs a tenant-level grant holding the permission; `*`: any grant in the tenant; `S`: a grant covering
 * the target unit (or, for tenant-node objects, a tenant-level grant).
 */
export type ScopeKind = 'T' | 'S' | '*';

export const PERMISSION_SCOPES = {
  'tenant:read': '*',
  'tenant:write': 'T',
  'organization-units:read': 'S',
  'organization-units:write': 'S',
  'memberships:read': 'S',
  'memberships:write': 'S',
  'devices:read': 'S',
  'devices:write': 'S',
  'devices:assign': 'S',
  'telemetry:read': 'S',
  'device-types:read': '*',
  'device-types:write': 'T',
  'flows:read': 'T',
  'flows:write': 'T',
  'flows:release': 'T',
  'blocks:read': 'T',
  'blocks:write': 'T',
  'blocks:release': 'T',
  'actions:read': 'T',
  'actions:write': 'T',
  'actions:release': 'T',
  'actions:control': 'T',
  'ingestion:manage': 'T',
  'audit:read': 'T',
} as const satisfies Record<string, ScopeKind>;

export type Permission = keyof typeof PERMISSION_SCOPES;

const ALL = Object.keys(PERMISSION_SCOPES) as Permission[];

export const ROLE_PERMISSIONS: Record<TenantRole, ReadonlySet<Permission>> = {
  tenant_admin: new Set(ALL),
  tenant_operator: new Set<Permission>([
    'tenant:read',
    'organization-units:read',
    'devices:read',
    'devices:write',
    'devices:assign',
    'telemetry:read',
    'device-types:read',
    'flows:read',
    'flows:write',
    'blocks:read',
    'blocks:write',
    'actions:read',
    'actions:control',
  ]),
  tenant_viewer: new Set<Permission>([
    'tenant:read',
    'organization-units:read',
    'devices:read',
    'telemetry:read',
    'device-types:read',
    'flows:read',
    'blocks:read',
  ]),
};

/** Sorted, for the `permissions` of `/me` memberships. */
export function permissionsOf(role: TenantRole): Permission[] {
  return [...ROLE_PERMISSIONS[role]].sort();
}
