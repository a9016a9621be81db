import { defineDocs, ASCENDING, EXISTENCE_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const DEVICE_ASSIGNMENTS_DOCS = defineDocs({
  deviceAssignments_list: {
    summary: 'List a device’s assignment periods',
    description: lines(
      'The periods the caller may see: all of them with whole-tenant scope, otherwise only periods in units it can access.',
      ASCENDING,
      EXISTENCE_404,
    ),
  },
  deviceAssignments_create: {
    summary: 'Assign a device to a unit, or move it',
    description: lines(
      'The grant must cover both the device’s current unit (if any) and the target unit.',
      'Body: `organizationUnitId`, `validFrom` optional (default now). The open period, if any, is closed at `validFrom` and a new one opens there. `validFrom` in the future, not after the open period’s start, or before the last period’s end is 400 `body.validFrom` `range`; an unknown or invisible unit is 400 `reference_not_found`. Answers 201 with `Location: /v1/devices/{deviceId}/assignments/{deviceAssignmentId}`.',
      EXISTENCE_404 +
        ' **409** `already_assigned` (already in that unit, or a concurrent move won), `organization_unit_disabled`, `invalid_state` (the device is retired).',
    ),
    errors: { 409: 'already_assigned' },
  },
  deviceAssignments_get: {
    summary: 'Get one assignment period of a device',
    description: '**404**: the device or the period is missing, in another tenant, or outside the caller’s scope (a period in a unit the caller cannot access included).',
  },
  deviceAssignments_end: {
    summary: 'End a device’s open assignment period',
    description: lines(
      'Body: `validTo` optional (default now); not after the period’s start or in the future is 400 `body.validTo` `range`. The device becomes unassigned.',
      '**404**: the device or the period is missing or invisible. **409** `assignment_closed`: the period has already ended.',
    ),
    errors: { 409: 'assignment_closed' },
  },
});
