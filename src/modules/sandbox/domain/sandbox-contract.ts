/*
 * The script contract of design §9.2 and the node error codes of §9.4, as the flows module sees them.
 * Everything here is plain JSON: it crosses the isolate boundary only as a string.
 */

/** JSON-compatible data: what goes into a script and what may come out of one. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

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

/** §9.4 node error codes the sandbox produces (`script_error` is a throw; the rest are limits and shapes). */
export type InvocationErrorCode =
  | 'script_error'
  | 'timeout'
  | 'memory_limit'
  | 'invalid_output'
  | 'output_too_large'
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
}

export type CompileIssueCode = 'syntax_error' | 'missing_transform';
export type SandboxIssueCode = 'runtime_error' | 'timeout' | 'memory_limit' | 'invalid_output' | 'output_too_large';

/** One entry of FLOW_FAILURE `issues` (§2), with the script position where one is known (1-based). */
export interface GateIssue {
  severity: 'error';
  code: CompileIssueCode | SandboxIssueCode;
  path: string;
  message: string;
  line?: number;
  column?: number;
}

export type CompileResult = { ok: true; artifact: ScriptArtifact } | { ok: false; issues: GateIssue[] };

/** The sample a block version is released with (§5.11 `sampleInput`). */
export interface SampleInput {
  payload: JsonValue;
  values: JsonObject;
  configuration?: JsonObject;
  parameters?: JsonObject;
}

export interface GateReport {
  passed: boolean;
  /** The gate that failed, null when both passed. */
  gate: 'compile' | 'sandbox' | null;
  issues: GateIssue[];
  /** The sample run, when the sandbox gate ran: what the script returned (null: filtered) and logged. */
  sample: { result: ScriptOutput | null; logs: string[]; logsTruncated: boolean } | null;
  artifact: ScriptArtifact | null;
}
