import type { AppConfig } from '../../config/app-config';

/** The configurable limits (SANDBOX_* variables). */
export interface SandboxLimits {
  /** CPU time of one call, promise jobs included, ms. */
  timeoutMs: number;
  /** Heap of one tenant's isolate, MiB. */
  memoryMb: number;
  /** Tenant isolates kept at once; the least recently used idle one is disposed beyond that. */
  maxIsolates: number;
}

/** Fixed by the script contract, not configuration. */
export const SANDBOX_OUTPUT_LIMITS = {
  maxResultBytes: 64 * 1024,
  maxLogLines: 100,
  maxLogBytes: 8 * 1024,
  maxMessageChars: 1000,
} as const;

/** Block-version contexts kept per tenant isolate; more are rebuilt on demand (global state does not survive). */
export const MAX_CONTEXTS_PER_ISOLATE = 100;

export function sandboxLimitsFrom(config: AppConfig): SandboxLimits {
  return {
    timeoutMs: config.sandboxTimeoutMs,
    memoryMb: config.sandboxMemoryMb,
    maxIsolates: config.sandboxMaxIsolates,
  };
}
