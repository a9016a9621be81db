import { DependencyFailureError } from '../../../shared/errors/domain-error';
import type { ScriptArtifact } from '../../sandbox/domain/sandbox-contract';
import { SANDBOX_UNAVAILABLE_MESSAGE } from '../../sandbox/script-sandbox';
import type { NodeOutcome } from './built-in-executors';
import type { SandboxInvoker } from './engine-types';
import type { NodeExecutor } from './execution-plan';

/**
 * The sandbox itself failed (not the script): the execution has no outcome. Callers answer 503 (preview,
 * fixture runs) or leave the message for a retry (ingestion); it is never recorded as a node failure.
 */
export class SandboxUnavailableError extends DependencyFailureError {
  constructor() {
    super('sandbox', 'unavailable', SANDBOX_UNAVAILABLE_MESSAGE);
  }
}

/**
 * A custom (or payload codec) block version run through the sandbox with `ctx` = {parameters, configuration,
 * device, tenantId, observedAt, mode, nodeId}. A null result filters the message; otherwise `payload` replaces
 * the message's and `values` merge into its values. The sandbox's error codes pass through unchanged.
 */
export function customExecutor(sandbox: SandboxInvoker, flowBlockVersionId: string, artifact: ScriptArtifact): NodeExecutor {
  return async (message, configuration, nodeId, run): Promise<NodeOutcome> => {
    const outcome = await sandbox.invoke(run.tenantId, flowBlockVersionId, artifact, message, {
      parameters: run.parameters,
      configuration,
      device: run.device,
      tenantId: run.tenantId,
      observedAt: run.observedAt,
      mode: run.mode,
      nodeId,
    });
    if (!outcome.ok) {
      if (outcome.error.code === 'block_unavailable' && outcome.error.message === SANDBOX_UNAVAILABLE_MESSAGE) throw new SandboxUnavailableError();
      return { kind: 'failed', error: outcome.error, logs: outcome.logs };
    }
    if (outcome.result === null) return { kind: 'filtered', logs: outcome.logs };
    const { payload, values } = outcome.result;
    return {
      kind: 'emitted',
      port: 'out',
      logs: outcome.logs,
      message: {
        payload: payload === undefined ? message.payload : payload,
        values: values === undefined ? message.values : { ...message.values, ...values },
        input: message.input,
      },
    };
  };
}
