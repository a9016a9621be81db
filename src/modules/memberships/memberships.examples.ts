/**
 * Examples of the membership schemas and of the parameters of their routes, attached to the memberships controller
 * with @ApiDocs.
 */
import { MEMBERSHIP_ID, TENANT_NUMBER, UNIT_ID, membership, page } from '../../shared/http/example-values';

export const MEMBERSHIPS_SCHEMA_EXAMPLES: Record<string, unknown> = {
  MembershipResponse: membership,
  MembershipPage: page([membership], 38),
  CreateMembershipRequest: { userEmail: 'maria.lopez@acme-water.example', role: 'tenant_operator', organizationUnitId: UNIT_ID, includeDescendants: true },
  UpdateMembershipRequest: { role: 'tenant_admin' },
};

export const MEMBERSHIPS_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
  membershipId: MEMBERSHIP_ID,
};
