/*
 * The memberships module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { MEMBERSHIP_STATUSES } from './dto/membership.fields';
export { MembershipResponse } from './dto/membership.response.dto';
export { loadMembershipRecords } from './persistence/membership.repository';
export type { MembershipRecord } from './persistence/membership.repository';
