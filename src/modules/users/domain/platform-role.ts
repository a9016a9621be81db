/** The one platform role (the API record "Global user": `platformRoles` allows `platform_admin`). */
export const PLATFORM_ADMIN_ROLE = 'platform_admin';
export const PLATFORM_ADMIN_ROLE_PATH = `:userId/platform-roles/${PLATFORM_ADMIN_ROLE}`;
