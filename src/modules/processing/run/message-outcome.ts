import type { ExecutionResult, JsonObject, NodeErrorCode, StoredUplink } from '../../flows/engine';
import type { PreparedFlowVersion } from './flow-version-loader';

export type { StoredUplink };

/** The device a message was routed to. */
export interface RoutedDevice {
  deviceId: string;
  tenantId: string;
  deviceTypeId: string;
  devEui: string;
  name: string;
  metadata: Record<string, string>;
}

export type RunMode = 'live' | 'replay';

/** One message run through one version (not stored yet). */
export interface MessageOutcome {
  flowExecutionId: string;
  message: StoredUplink;
  device: RoutedDevice;
  prepared: PreparedFlowVersion;
  parameters: JsonObject;
  startedAt: Date;
  result: ExecutionResult;
}

/** A failed execution that ran no node (`nodeId` null): the version cannot run, or storage refused its values. */
export function failedResult(flowVersionId: string, code: NodeErrorCode, message: string): ExecutionResult {
  return { status: 'failed', flowVersionId, durationMs: 0, current: {}, timeseries: {}, actions: [], error: { nodeId: null, code, message }, trace: [] };
}
