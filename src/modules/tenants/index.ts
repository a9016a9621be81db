/*
 * The tenants module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { TenantResponse } from './dto/tenant.response.dto';
export { sameMap } from './persistence/tenant.repository';
export { TenantNumberParam } from './tenant-number.param';
