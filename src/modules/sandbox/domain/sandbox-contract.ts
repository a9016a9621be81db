/*
 * The script contract (input, result shape, limits) and the node error codes, as the flows module sees them.
 * Everything here is plain JSON: it crosses the isolate boundary only as a string.
 */

/** JSON-compatible data: what goes into a script and what may come out of one. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/**
 * How a block version's script is called:
 * - `transform`: `transform(msg, ctx)` returns {payload?, values?}, null or undefined (the native contract);
 * - `decodeUplink`: a The Things Network v3 / ChirpStack v4 payload codec, called with
 *   `{ bytes, fPort, recvTime, variables }`; its `data` replaces `payload`;
 * - `Decode`: a ChirpStack v3 codec, called as `Decode(fPort, bytes, variables)`; its return value replaces `payload`.
 * A source declaring a top-level `transform` is a transform even if it also declares a codec function;
 * `decodeUplink` wins over `Decode` (codecs written for both ChirpStack versions declare both).
 */
export type ScriptContract = 'transform' | 'decodeUplink' | 'Decode';

export const SCRIPT_CONTRACTS: readonly ScriptContract[] = ['transform', 'decodeUplink', 'Decode'];

/** `msg` of `transform(msg, ctx)`. */
export interface ScriptMessage {
  payload: JsonValue;
  values: JsonObject;
  input: JsonObject;
}

/** `ctx` of `transform(msg, ctx)`. */
export interface ScriptContextData {
  parameters: JsonObject;
  configuration: JsonObject;
  device: { deviceId: string; devEui?: string; name?: string; deviceTypeId: string; metadata: Record<string, string> };
  tenantId: string;
  observedAt: string;
  mode: string;
  nodeId: string;
}

/** A valid non-null return of `transform`: `payload` replaces the message's, `values` merges into it. */
export interface ScriptOutput {
  payload?: JsonValue;
  values?: JsonObject;
}

/** The node error codes the sandbox produces (`script_error` is a throw; the rest are limits and shapes). */
export type InvocationErrorCode =
  | 'script_error'
  | 'timeout'
  | 'memory_limit'
  | 'invalid_output'
  | 'output_too_large'
  /** A codec block's message has no payload bytes (not a byte array or base64 string). */
  | 'decode_error'
  /** The artifact is unusable, or the sandbox itself failed (the call may succeed later). */
  | 'block_unavailable';

export type InvocationOutcome =
  /** `result` null: the script filtered the message (returned null or undefined). */
  | { ok: true; result: ScriptOutput | null; logs: string[]; logsTruncated: boolean }
  | { ok: false; error: { code: InvocationErrorCode; message: string }; logs: string[]; logsTruncated: boolean };

/**
 * What `compile` returns and the blocks module stores on a released version. Only the source is executable;
 * the checksum ties cached contexts to the exact source they were built from.
 */
export interface ScriptArtifact {
  format: 'uplink-script.v1';
  source: string;
  /** Lowercase hex SHA-256 of `source`. */
  sha256: string;
  /** How the script is called (detected by the compile gate). */
  scriptContract: ScriptContract;
}

export const ARTIFACT_FORMAT: ScriptArtifact['format'] = 'uplink-script.v1';

/** Whether `artifact` is a whole artifact of the current format with a known script contract. */
export function isUsableArtifact(artifact: ScriptArtifact | null | undefined): artifact is ScriptArtifact {
  return (
    artifact?.format === ARTIFACT_FORMAT &&
    typeof artifact.source === 'string' &&
    typeof artifact.sha256 === 'string' &&
    (SCRIPT_CONTRACTS as readonly string[]).includes(artifact.scriptContract)
  );
}

export type CompileIssueCode = 'syntax_error' | 'missing_transform';
export type SandboxIssueCode = 'runtime_error' | 'timeout' | 'memory_limit' | 'invalid_output' | 'output_too_large';

/** One entry of FLOW_FAILURE `issues`, with the script position where one is known (1-based). */
export interface GateIssue {
  severity: 'error';
  code: CompileIssueCode | SandboxIssueCode;
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export type CompileResult = { ok: true; artifact: ScriptArtifact; scriptContract: ScriptContract } | { ok: false; issues: GateIssue[] };

/**
 * The sample a block version is released with (`sampleInput`). `input` is merged over the gate's preview
 * envelope: codecs take `fPort` from `input.connectionData.fPort` and `recvTime` from `input.observedAt`
 * (default: now); for a codec, `payload` must be a byte array or a base64 string.
 */
export interface SampleInput {
  payload: JsonValue;
  values?: JsonObject;
  configuration?: JsonObject;
  parameters?: JsonObject;
  input?: JsonObject;
}

export interface GateReport {
  passed: boolean;
  /** The gate that failed, null when both passed. */
  gate: 'compile' | 'sandbox' | null;
  issues: GateIssue[];
  /** The sample run, when the sandbox gate ran: what the script returned (null: filtered) and logged. */
  sample: { result: ScriptOutput | null; logs: string[]; logsTruncated: boolean } | null;
  artifact: ScriptArtifact | null;
  /** The contract the compile gate detected; null when it failed. */
  scriptContract: ScriptContract | null;
}
