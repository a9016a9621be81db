/*
 * The tenancy module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { MembershipEntity } from './persistence/membership.entity';
export type { MembershipStatus } from './persistence/membership.entity';
export { OrganizationUnitEntity } from './persistence/organization-unit.entity';
export { TenantEntity } from './persistence/tenant.entity';
