/** The one platform role (spec "Global user": `platformRoles` allows `platform_admin`). */
export const PLATFORM_ADMIN_ROLE = 'platform_admin';
export const PLATFORM_ADMIN_ROLE_PATH = `:userId/platform-roles/${PLATFORM_ADMIN_ROLE}`;
