import type { ScriptArtifact } from '../../sandbox';
import type { NodeExecutor, NodeOutcome, SandboxInvoker } from './engine-types';

/**
 * A custom (or payload codec) block version run through the sandbox with `ctx` = {parameters, configuration,
 * device, tenantId, observedAt, mode, nodeId}. A null result filters the message; otherwise `payload` replaces
 * the message's and `values` merge into its values. The sandbox's error codes pass through unchanged; a sandbox
 * outage (SandboxUnavailableError) is thrown on, never a node outcome.
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
    if (!outcome.ok) return { kind: 'failed', error: outcome.error, logs: outcome.logs };
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
