import { errorExample } from './schema-examples';

/**
 * A realistic error envelope for a declared error response of an operation: the status picks the code, the
 * response's description (which names the reasons in backticks) and the operation's path pick the details.
 */
interface OperationFacts {
  operationId: string;
  path: string;
  description: string;
  permission?: string;
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

const RESOURCE_OF_PARAM: Record<string, string> = {
  tenantNumber: 'tenant',
  userId: 'user',
  sessionId: 'session',
  organizationUnitId: 'organization_unit',
  membershipId: 'membership',
  deviceTypeId: 'device_type',
  key: 'device_field',
  deviceId: 'device',
  deviceAssignmentId: 'device_assignment',
  flowId: 'flow',
  flowVersionId: 'flow_version',
  fixtureId: 'flow_fixture',
  parameterOverrideId: 'flow_parameter_override',
  flowBlockId: 'flow_block',
  flowBlockVersionId: 'flow_block_version',
  flowExecutionId: 'flow_execution',
  replayId: 'flow_replay',
};

const DUPLICATE_KEY_MESSAGES: Record<string, string> = {
  CreateTenantController_create: 'A tenant with this key already exists.',
  CreateOrganizationUnitController_create: 'An organization unit with this key already exists in the tenant.',
  CreateDeviceTypeController_create: 'A device type with this key already exists in the tenant.',
  CreateDeviceFieldController_create: 'The device type already has a field with this key (deprecated keys stay taken).',
  CreateGlobalFlowBlockController_create: 'A block with this key already exists in this scope.',
  CreateTenantFlowBlockController_create: 'A block with this key already exists in this scope.',
};

/** The status an `invalid_state` conflict reports, and its message, for the operation that met it. */
function invalidState(operationId: string, resourceType: string): { currentStatus: string; message: string } {
  const resource = resourceType.replace(/_/g, ' ');
  if (operationId === 'CancelReplayController_cancel') return { currentStatus: 'succeeded', message: 'A succeeded flow replay cannot be cancelled.' };
  if (operationId === 'ReleaseFlowVersionController_release') return { currentStatus: 'released', message: 'Only a draft can be released; this version is released.' };
  if (operationId === 'DeprecateFlowVersionController_deprecate') return { currentStatus: 'draft', message: 'Only a released version can be deprecated; this version is draft.' };
  if (resourceType === 'device' && operationId.endsWith('_disable')) return { currentStatus: 'retired', message: 'A retired device cannot be disabled.' };
  if (resourceType === 'device' && operationId.endsWith('_reactivate')) return { currentStatus: 'retired', message: 'A retired device cannot be reactivated.' };
  if (operationId.endsWith('_reactivate')) return { currentStatus: 'active', message: `The ${resource} is already active.` };
  if (operationId.endsWith('_disable')) return { currentStatus: 'disabled', message: `The ${resource} is already disabled.` };
  if (operationId.endsWith('_retire')) return { currentStatus: 'retired', message: 'A retired device cannot be retired.' };
  if (operationId === 'ReleaseFlowBlockVersionController_release') return { currentStatus: 'released', message: 'The flow block version is already released.' };
  if (operationId === 'DeprecateFlowBlockVersionController_deprecate') return { currentStatus: 'draft', message: 'A draft flow block version cannot be deprecated.' };
  if (operationId.endsWith('_deprecate')) return { currentStatus: 'deprecated', message: 'The field is already deprecated.' };
  if (resourceType === 'device_field') return { currentStatus: 'deprecated', message: 'A deprecated field cannot change.' };
  if (operationId === 'AssignDeviceController_assign') return { currentStatus: 'retired', message: 'A retired device cannot be assigned.' };
  return { currentStatus: 'retired', message: 'A retired device cannot be changed.' };
}

/** The resource type of an operation's target: its last path parameter's. */
const targetOf = (path: string): string => {
  const lastParam = [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1]).pop();
  return (lastParam ? RESOURCE_OF_PARAM[lastParam] : undefined) ?? 'tenant';
};

const FORBIDDEN_REASONS = ['origin_not_allowed', 'platform_admin_required', 'password_change_required'];

const firstCodeIn = (text: string, known: readonly string[]): string | undefined =>
  [...text.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]).find((word) => known.includes(word));

export function errorEnvelopeExample(status: number, facts: OperationFacts): Record<string, unknown> | undefined {
  switch (status) {
    case 400:
      return errorExample('VALIDATION_FAILED', 'validation', 'The request is invalid: body.name: This property must not be blank.', {
        fields: [{ path: 'body.name', rule: 'blank', message: 'This property must not be blank.' }],
      });
    case 401:
      if (facts.operationId === 'LoginController_login') {
        return errorExample('AUTHENTICATION_FAILED', 'authentication', 'Sign-in failed: check the identifier and password.');
      }
      if (facts.operationId === 'RefreshController_refresh') {
        return errorExample('AUTHENTICATION_FAILED', 'authentication', 'The refresh cookie is missing, invalid, expired or revoked.');
      }
      return errorExample('AUTHENTICATION_FAILED', 'authentication', 'The access token has expired.', { reason: 'expired_token' });
    case 403: {
      const reason = firstCodeIn(facts.description, FORBIDDEN_REASONS);
      if (reason === 'origin_not_allowed') {
        return errorExample('AUTHORIZATION_FAILED', 'authorization', 'This request must come from an allowed origin.', { reason });
      }
      if (reason === 'platform_admin_required' || !facts.permission) {
        return errorExample('AUTHORIZATION_FAILED', 'authorization', 'This endpoint requires the platform_admin role.', {
          reason: 'platform_admin_required',
        });
      }
      return errorExample('AUTHORIZATION_FAILED', 'authorization', `This action needs the ${facts.permission} permission.`, {
        reason: 'missing_permission',
        permission: facts.permission,
      });
    }
    case 404: {
      const named = /`resourceType` `([a-z_]+)`/.exec(facts.description)?.[1];
      const resourceType = named ?? targetOf(facts.path);
      return errorExample('RESOURCE_NOT_FOUND', 'not_found', `The ${resourceType.replace(/_/g, ' ')} was not found.`, { resourceType });
    }
    case 409: {
      const reason = firstCodeIn(facts.description, Object.keys(CONFLICT_MESSAGES)) ?? 'invalid_state';
      if (reason === 'invalid_state') {
        const { currentStatus, message } = invalidState(facts.operationId, targetOf(facts.path));
        return errorExample('CONFLICT', 'conflict', message, { reason, currentStatus });
      }
      const message =
        (reason === 'duplicate_key' ? DUPLICATE_KEY_MESSAGES[facts.operationId] : undefined) ??
        (facts.operationId === 'SetTemporaryPasswordController_set' && reason === 'protected_user'
          ? 'This user is protected and cannot be given a temporary password.'
          : CONFLICT_MESSAGES[reason]);
      return errorExample('CONFLICT', 'conflict', message, reason === 'lock_version_mismatch' ? { reason, currentLockVersion: 4 } : { reason });
    }
    case 422:
      if (facts.operationId.includes('Block')) {
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
