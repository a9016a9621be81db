import type { JsonObject, SampleInput, ScriptArtifact } from '../domain/sandbox-contract';

/**
 * An artifact without its source, sent once the host has had the source under that checksum (a codec can be
 * 100 KB: it crosses the process boundary once, not with every call).
 */
export type ArtifactRef = Omit<ScriptArtifact, 'source'> & { source?: undefined };

/** One engine call sent to the sandbox host; `id` pairs it with its reply. */
export type HostRequest = { id: number } & (
  | { op: 'invoke'; tenantId: string; blockVersionId: string; artifact: ScriptArtifact | ArtifactRef; msgJson: string; ctxJson: string }
  | { op: 'compile'; source: string }
  /** `blameKey`: who answers for a failure of the gate run's isolate (one key per tenant). */
  | { op: 'gate'; blameKey: string; source: string; sampleInput: SampleInput; configurationSchema?: JsonObject }
);

/**
 * `failure`: the engine itself failed (never a script outcome: those are values). `missingSource`: the request
 * referred to an artifact whose source the host no longer has; send it again with the source.
 */
export type HostReply = { id: number; value?: unknown; failure?: string; missingSource?: true };

export interface HostStats {
  isolates: number;
  heapUsedBytes: number;
}

export type HostMessage =
  | { ready: true }
  | { replies: HostReply[]; stats: HostStats }
  /** The host is about to kill itself: an isolate of `tenantId` (a blame key) failed beyond recovery. */
  | { fatal: { tenantId: string; reason: string } };
