/*
 * Entry point of the sandbox host: a child process of the service that owns every isolate. isolated-vm cannot
 * contain every failure: a V8 out-of-memory on one large allocation (a growing Map, Set or dictionary object)
 * or a script that ignores termination wedges its thread for good and makes process exit hang. Here, such a
 * failure costs a SIGKILL and a restart of this process, never the service.
 *
 * Protocol (IPC, JSON): the parent sends { requests: HostRequest[] }; this process answers { replies, stats }
 * in batches, and { fatal } right before it kills itself.
 */
import { createHash } from 'node:crypto';
import type { ScriptArtifact } from '../domain/sandbox-contract';
import { SandboxEngine } from '../isolate/sandbox-engine';
import type { CallInput } from '../isolate/script-context';
import type { SandboxLimits } from '../sandbox-limits';
import type { ArtifactRef, HostMessage, HostReply, HostRequest } from './host-protocol';

const limits = JSON.parse(process.env.UPLINK_SANDBOX_LIMITS ?? '') as SandboxLimits;
const stats = { isolates: 0, heapUsedBytes: 0 };
let outbox: HostReply[] = [];
let dying = false;

function send(message: HostMessage, done?: () => void): void {
  if (process.send) process.send(message, undefined, {}, () => done?.());
}

function die(tenantId: string, reason: string): void {
  if (dying) return;
  dying = true;
  // exit() would wait forever for the wedged isolate thread: only SIGKILL ends this process for sure.
  const kill = () => process.kill(process.pid, 'SIGKILL');
  send({ fatal: { tenantId, reason } }, kill);
  setTimeout(kill, 1000).unref();
}

const engine = new SandboxEngine(limits, {
  isolatesChanged: (count) => (stats.isolates = count),
  heapChanged: (bytes) => (stats.heapUsedBytes = bytes),
  catastrophicError: (tenantId, message) => die(tenantId, message),
});

function flush(): void {
  const replies = outbox;
  outbox = [];
  if (replies.length > 0 && !dying) send({ replies, stats: { ...stats } });
}

function reply(entry: HostReply): void {
  if (outbox.length === 0) setImmediate(flush);
  outbox.push(entry);
}

/** Sources the parent sent, by their SHA-256, least recently used first; at most this many characters in all. */
const MAX_CACHED_SOURCE_CHARS = 32 * 1024 * 1024;
const sources = new Map<string, string>();
let cachedChars = 0;

/** The full artifact of a request: its source as sent (then cached under its real checksum), or from the cache. */
function resolveArtifact(artifact: ScriptArtifact | ArtifactRef): ScriptArtifact | null {
  if (typeof artifact?.source === 'string') {
    const sha256 = createHash('sha256').update(artifact.source).digest('hex');
    if (!sources.has(sha256)) {
      sources.set(sha256, artifact.source);
      cachedChars += artifact.source.length;
      for (const [key, source] of sources) {
        if (cachedChars <= MAX_CACHED_SOURCE_CHARS) break;
        sources.delete(key);
        cachedChars -= source.length;
      }
    }
    return artifact as ScriptArtifact;
  }
  const source = typeof artifact?.sha256 === 'string' ? sources.get(artifact.sha256) : undefined;
  if (source === undefined) return null;
  sources.delete(artifact.sha256);
  sources.set(artifact.sha256, source);
  return { ...artifact, source };
}

const failureOf = (error: unknown): string => String((error as { message?: unknown })?.message ?? error);

function answer(id: number, work: Promise<unknown>): void {
  work.then(
    (value) => reply({ id, value }),
    (error: unknown) => reply({ id, failure: failureOf(error) }),
  );
}

/**
 * Invocations of one block version of one tenant that arrive together run as one engine batch (one task of the
 * isolate for many calls: see SandboxEngine.invokeMany); each still gets its own reply.
 */
process.on('message', (message: { requests: HostRequest[] }) => {
  const batches = new Map<string, { tenantId: string; blockVersionId: string; artifact: ScriptArtifact; ids: number[]; calls: CallInput[] }>();
  for (const request of message.requests) {
    if (request.op === 'compile') answer(request.id, engine.compile(request.source));
    else if (request.op === 'gate') answer(request.id, engine.gate(request.blameKey, request.source, request.sampleInput, request.configurationSchema));
    else {
      // Resolved in arrival order: a reference later in the same message finds the source an earlier one brought.
      const artifact = resolveArtifact(request.artifact);
      if (!artifact) {
        reply({ id: request.id, missingSource: true });
        continue;
      }
      const key = `${request.tenantId}\n${request.blockVersionId}\n${artifact.sha256}`;
      let batch = batches.get(key);
      if (!batch) batches.set(key, (batch = { tenantId: request.tenantId, blockVersionId: request.blockVersionId, artifact, ids: [], calls: [] }));
      batch.ids.push(request.id);
      batch.calls.push({ msgJson: request.msgJson, ctxJson: request.ctxJson });
    }
  }
  for (const { tenantId, blockVersionId, artifact, ids, calls } of batches.values()) {
    engine.invokeMany(tenantId, blockVersionId, artifact, calls).then(
      (settled) => settled.forEach((result, i) => reply(result.status === 'fulfilled' ? { id: ids[i], value: result.value } : { id: ids[i], failure: failureOf(result.reason) })),
      (error: unknown) => ids.forEach((id) => reply({ id, failure: failureOf(error) })),
    );
  }
});

// The parent going away (crash, SIGKILL) must not leave this process behind.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
send({ ready: true });
