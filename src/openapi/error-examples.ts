import type { DeclaredErrors } from '../shared/http/route-docs';
import { CORRELATION_ID } from '../shared/http/example-values';

/** What an operation's error examples are built from: its path, its access metadata and its declared errors. */
export interface OperationFacts {
  path: string;
  permission?: string;
  platformAdminOnly: boolean;
  declared: DeclaredErrors;
}

const CONFLICT_MESSAGES: Record<string, string> = {
  already_active: 'Version 3 is already the active version.',
  already_assigned: 'The device is already assigned to this unit.',
  assignment_closed: 'This assignment period has already ended.',
  device_type_disabled: 'The device type is disabled: it takes no new devices.',
  duplicate_dev_eui: 'A device with this devEui is already registered; retire it before registering the devEui again.',
  duplicate_email: 'A user with this e-mail address already exists.',
  duplicate_key: 'An entry with this key already exists.',
  duplicate_membership: 'The user already has an active grant on this target.',
  flow_exists: 'This device type already has its flow.',
  max_fixtures: 'A flow has at most 100 fixtures; delete one first.',
  no_active_version: 'The flow has no active version; name a flowVersionId.',
  version_not_released: 'Only a released version can be activated; this one is deprecated.',
  duplicate_username: 'A user with this username already exists.',
  invalid_state: 'The resource is not in a state that allows this.',
  last_platform_admin: 'This is the last active platform admin; grant the role to someone else first.',
  lock_version_mismatch: 'The resource changed since you read it: its lockVersion is now 4.',
  max_blocks: 'A tenant holds at most 500 custom blocks.',
  max_depth: 'Organization units nest at most 16 levels deep.',
  max_fields: 'A device type has at most 200 active fields; deprecate one first.',
  organization_unit_disabled: 'The organization unit is disabled (itself, an ancestor or its tenant).',
  parent_disabled: 'The parent unit is disabled (itself, an ancestor or its tenant).',
  protected_user: 'This user is protected and cannot be disabled or demoted.',
  replay_in_progress: 'The flow already has a queued or running replay; wait for it or cancel it first.',
  refresh_in_progress: 'This refresh token was just rotated; retry once with the current cookie.',
  self_lockout: 'You cannot disable or demote yourself; ask another platform admin.',
  self_target: 'You cannot give yourself a temporary password; use change-password.',
};

/** Path parameters whose resource type is not their name without `Id`, in snake case. */
const RESOURCE_OF_PARAM: Record<string, string> = {
  tenantNumber: 'tenant',
  key: 'device_field',
  fixtureId: 'flow_fixture',
  parameterOverrideId: 'flow_parameter_override',
  replayId: 'flow_replay',
};

/** The resource type of an operation's target: its last path parameter's (`deviceTypeId` is `device_type`). */
const targetOf = (path: string): string => {
  const lastParam = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1]).pop();
  if (!lastParam) return 'tenant';
  return RESOURCE_OF_PARAM[lastParam] ?? lastParam.replace(/Id$/, '').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
};

/**
 * A realistic error envelope for a declared error response of an operation: the status picks the code, the
 * route's declared errors (or, without a declaration, its access metadata and its path) pick the details.
 */
export function errorEnvelopeExample(status: number, facts: OperationFacts): Record<string, unknown> | undefined {
  switch (status) {
    case 400:
      return errorExample('VALIDATION_FAILED', 'validation', 'The request is invalid: body.name: This property must not be blank.', {
        fields: [{ path: 'body.name', rule: 'blank', message: 'This property must not be blank.' }],
      });
    case 401:
      if (facts.declared[401]) return errorExample('AUTHENTICATION_FAILED', 'authentication', facts.declared[401]);
      return errorExample('AUTHENTICATION_FAILED', 'authentication', 'The access token has expired.', { reason: 'expired_token' });
    case 403: {
      const reason = facts.declared[403] ?? (facts.platformAdminOnly || !facts.permission ? 'platform_admin_required' : undefined);
      if (reason === 'origin_not_allowed') {
        return errorExample('AUTHORIZATION_FAILED', 'authorization', 'This request must come from an allowed origin.', { reason });
      }
      if (reason === 'platform_admin_required') {
        return errorExample('AUTHORIZATION_FAILED', 'authorization', 'This endpoint requires the platform_admin role.', { reason });
      }
      return errorExample('AUTHORIZATION_FAILED', 'authorization', `This action needs the ${facts.permission} permission.`, {
        reason: 'missing_permission',
        permission: facts.permission,
      });
    }
    case 404: {
      const resourceType = facts.declared[404] ?? targetOf(facts.path);
      return errorExample('RESOURCE_NOT_FOUND', 'not_found', `The ${resourceType.replace(/_/g, ' ')} was not found.`, { resourceType });
    }
    case 409: {
      const declared = facts.declared[409] ?? 'invalid_state';
      const { reason, message, currentStatus } = typeof declared === 'string' ? { reason: declared, message: undefined, currentStatus: undefined } : declared;
      const text = message ?? CONFLICT_MESSAGES[reason] ?? CONFLICT_MESSAGES.invalid_state;
      if (reason === 'invalid_state') return errorExample('CONFLICT', 'conflict', text, { reason, currentStatus: currentStatus ?? 'retired' });
      return errorExample('CONFLICT', 'conflict', text, reason === 'lock_version_mismatch' ? { reason, currentLockVersion: 4 } : { reason });
    }
    case 422:
      if (facts.declared[422] === 'sandbox') {
        return errorExample('FLOW_FAILURE', 'flow_failure', 'The sandbox gate failed: runtime_error at line 12, column 27.', {
          gate: 'sandbox',
          issues: [{ severity: 'error', code: 'runtime_error', path: 'sourceCode', message: "TypeError: Cannot read properties of undefined (reading 'length')", line: 12, column: 27 }],
        });
      }
      return errorExample('FLOW_FAILURE', 'flow_failure', 'The flow version does not compile: 1 error.', {
        gate: 'compile',
        issues: [{ severity: 'error', code: 'cycle_detected', path: 'graph.nodes[1]', message: 'The graph has a cycle through "scale", "filter".' }],
      });
    case 429:
      return errorExample('RATE_LIMITED', 'rate_limit', 'Too many requests. Retry later.', { retryAfterSeconds: 900 });
    case 503:
      return errorExample('DEPENDENCY_FAILURE', 'dependency_failure', 'The database is unavailable; retry later.', {
        dependency: 'database',
        reason: 'unavailable',
      });
    default:
      return undefined;
  }
}

/** An error envelope example, with the correlation id the other examples show. */
export function errorExample(code: string, category: string, message: string, details?: Record<string, unknown>): Record<string, unknown> {
  return { error: { code, category, message, correlationId: CORRELATION_ID, ...(details ? { details } : {}) } };
}
