import type { TenantRole } from '../../../shared/access/permissions';
import { OptionalIncludeDescendants, OptionalRole } from './membership.fields';
import { MinProperties } from '../../../shared/validation/min-properties';

/** At least one property; the user and the target of a grant never change. */
@MinProperties(1)
export class UpdateMembershipRequest {
  @OptionalRole()
  role?: TenantRole;

  @OptionalIncludeDescendants('Whether the grant also covers the units below its target.')
  includeDescendants?: boolean;
}

export type MembershipChanges = Pick<UpdateMembershipRequest, 'role' | 'includeDescendants'>;
