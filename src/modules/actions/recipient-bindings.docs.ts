import { defineDocs, ASCENDING, TENANT_404, lines } from '../../shared/http/route-docs';

const NOT_FOUND = '**404** (`recipient_binding`): missing, or in a tenant the caller has no effective grant in.';
const MATCHING =
  'At send time a binding matches a device when its `deviceTypeId` is null or the device’s type, and its `organizationUnitId` is null, the device’s current unit, or (with `includeDescendants`) a unit above it; an unassigned device matches only bindings without a unit. A `user` recipient also needs an effective grant covering the device (the device is visible to the user), else the delivery is `suppressed` with `recipient_out_of_scope`. Recipients are deduplicated by lower-cased address, at most 50 per e-mail action.';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const RECIPIENT_BINDINGS_DOCS = defineDocs({
  recipientBindings_list: {
    summary: 'List recipient bindings of a tenant',
    description: lines(
      'Filters (exact): `status` (`active`, `disabled`), `emailTemplateId`, `deviceTypeId`, `organizationUnitId`; a filter id naming nothing in the tenant is 400 `reference_not_found`.',
      ASCENDING,
      TENANT_404,
    ),
  },
  recipientBindings_create: {
    summary: 'Bind a recipient to an e-mail template',
    description: lines(
      'Body: `emailTemplateId` (a template of this tenant), `recipientType`: `user` with `userId` (a user holding an effective grant in this tenant; the e-mail goes to the user’s current address) or `email` with `email`; the other one is refused (`mismatch`). Optional: `deviceTypeId`, `organizationUnitId` (null or absent: any), `includeDescendants` (default true). Ids naming nothing in the tenant (or a user who is not a member) are 400 `reference_not_found`. Answers 201 with the binding and `Location: /v1/recipient-bindings/{recipientBindingId}`.',
      MATCHING,
      TENANT_404 +
        ' **409** `duplicate_binding`: the template already has an active binding of this recipient (the user, or the address in lower case) for the same device type and unit (`includeDescendants` aside); `max_bindings`: 500 active bindings per template.',
    ),
    errors: { 409: { reason: 'duplicate_binding', message: 'The template already has an active binding of this recipient for the same device type and unit.' } },
  },
  recipientBindings_get: {
    summary: 'Get a recipient binding',
    description: lines('`email` is the user’s current address for a `user` binding.', NOT_FOUND),
  },
  recipientBindings_update: {
    summary: 'Change what devices a recipient binding covers',
    description: lines(
      '`deviceTypeId`, `organizationUnitId` (null: any) and/or `includeDescendants`; the template and the recipient are immutable (`unknown_property`). At least one property (else 400 `body` `min_properties`).',
      NOT_FOUND + ' **409** `duplicate_binding`.',
    ),
    errors: { 409: { reason: 'duplicate_binding', message: 'The template already has an active binding of this recipient for the same device type and unit.' } },
  },
  recipientBindings_disable: {
    summary: 'Disable a recipient binding',
    description: lines('`active` → `disabled`: still listed (filter `status=disabled`), ignored at send.', NOT_FOUND + ' **409** `invalid_state` with `currentStatus`: already disabled.'),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'disabled', message: 'The recipient binding is already disabled.' } },
  },
  recipientBindings_reactivate: {
    summary: 'Reactivate a recipient binding',
    description: lines(
      '`disabled` → `active`.',
      NOT_FOUND + ' **409** `invalid_state` with `currentStatus`: already active; `duplicate_binding` while an equal binding is active; `max_bindings`.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'active', message: 'The recipient binding is already active.' } },
  },
});
