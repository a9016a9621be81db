import { DependencyFailureError } from '../../../shared/errors/domain-error';

/**
 * The script sandbox itself failed, not the script: the same call may succeed later. Answered 503
 * DEPENDENCY_FAILURE (dependency `sandbox`); a flow execution that meets it has no outcome, so it is never recorded
 * as a node failure.
 */
export class SandboxUnavailableError extends DependencyFailureError {
  constructor() {
    super('sandbox', 'unavailable', 'The script sandbox is unavailable. Retry later.');
  }
}
