import { ChildProcess, fork } from 'node:child_process';
import { extname, join } from 'node:path';
import type { SandboxLimits } from '../sandbox-limits';
import type { HostMessage, HostReply, HostRequest, HostStats } from './host-protocol';

type Operation = HostRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** The host died under a call: `code` names the limit its call hit, null when the call was not to blame. */
export class HostCrashedError extends Error {
  constructor(
    readonly code: 'timeout' | 'memory_limit' | null,
    message: string,
  ) {
    super(message);
  }
}

export interface HostEvents {
  stats(stats: HostStats): void;
  /** The host killed itself or was killed; `blamed` names the blame key(s) held responsible, when known. */
  crashed(blamed: string | null, reason: string): void;
}

interface Pending {
  request: HostRequest;
  /** Whose limits the call runs under: a tenant id for invocations, a gate key for gate runs. */
  blameKey: string;
  /** Set when sent to a ready host: past it, the host counts as wedged. */
  deadline: number | null;
  /** The host lacked this call's source: send it in full. */
  withSource: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Beyond the time a queue of calls may take: room for a loaded machine before a wedged host is assumed. */
const GRACE_MS = 3000;
const SWEEP_INTERVAL_MS = 100;
/** Hosts in a row that die before they are ready: beyond that, the sandbox is broken, not a script. */
const MAX_FAILED_STARTS = 3;
/** Checksums remembered as known to the host; beyond that the memory starts again (the host may ask anyway). */
const MAX_KNOWN_SOURCES = 10000;

/**
 * The parent's side of the sandbox host (sandbox-host.ts): starts it on demand, batches requests and replies
 * (one IPC message per event-loop turn each way), and replaces it when it dies. Every crash is attributed to a
 * call, which ends with its limit (`memory_limit` or `timeout`) and never runs again; every other call in
 * flight is sent again to the new host:
 * - a host that reports a fatal isolate failure names the blame key (tenant or gate) before it dies;
 * - a host that stops answering within the time its queued calls can take is SIGKILLed, blaming the late calls;
 * - a host that dies without a word (V8 aborts the process on some oversized allocations) is judged from the
 *   calls that were running: the calls sent and not answered (the host runs the calls of a block version that
 *   arrive together as one batch, so any of them may have been running). One such call is the culprit. Several
 *   are suspects: they run again alone, one at a time and nothing beside them, newest first; the one that
 *   crashes the host alone is the culprit, and when all but one passed, that last one is blamed without running
 *   it again.
 */
export class SandboxHostProcess {
  private child: ChildProcess | null = null;
  private ready = false;
  private closed = false;
  private nextId = 1;
  private outbox: HostRequest[] = [];
  private flushScheduled = false;
  private failedStarts = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly queued = new Map<string, number>();
  private readonly blame = new Map<string, 'timeout' | 'memory_limit'>();
  /** Suspects of a crash nobody was blamed for, run alone one by one; null outside such an inquiry. */
  private suspects: Pending[] | null = null;
  /** The suspect running alone right now. */
  private solo: Pending | null = null;
  private sweeper: NodeJS.Timeout | null = null;
  /** Artifact checksums whose source the current host has been sent. */
  private readonly knownSources = new Set<string>();

  constructor(
    private readonly limits: SandboxLimits,
    private readonly events: HostEvents,
  ) {}

  /** Runs one operation in the host; `blameKey` is who answers for a crash it causes. */
  request(blameKey: string, operation: Operation): Promise<unknown> {
    if (this.closed) return Promise.reject(new HostCrashedError(null, 'The sandbox is shut down.'));
    return new Promise((resolve, reject) => {
      const request = { ...operation, id: this.nextId++ } as HostRequest;
      this.pending.set(request.id, { request, blameKey, deadline: null, withSource: false, resolve, reject });
      this.enqueue(request);
    });
  }

  dispose(): void {
    this.closed = true;
    this.child?.kill('SIGKILL');
    for (const entry of this.pending.values()) entry.reject(new HostCrashedError(null, 'The sandbox is shut down.'));
    this.pending.clear();
    this.suspects = null;
    this.solo = null;
    this.stopSweeper();
  }

  private enqueue(request: HostRequest): void {
    this.outbox.push(request);
    this.ensureChild();
    this.refWhileBusy();
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.ready && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (!this.ready || !this.child) return;
    if (this.suspects) {
      this.nextSuspect();
      return;
    }
    if (this.outbox.length === 0) return;
    const requests = this.outbox;
    this.outbox = [];
    this.send(requests.filter((request) => this.pending.has(request.id)));
  }

  private send(requests: HostRequest[]): void {
    if (!this.child || requests.length === 0) return;
    const now = Date.now();
    for (const request of requests) {
      const entry = this.pending.get(request.id)!;
      // Calls of one tenant run one after another in its isolate: each may wait for those queued before it.
      const ahead = this.queued.get(entry.blameKey) ?? 0;
      this.queued.set(entry.blameKey, ahead + 1);
      entry.deadline = now + (ahead + 1) * 4 * this.limits.timeoutMs + GRACE_MS;
    }
    this.child.send({ requests: requests.map((request) => this.onWire(request)) });
    this.startSweeper();
  }

  /** An invocation refers to its artifact's source by checksum once the host has it. */
  private onWire(request: HostRequest): HostRequest {
    if (request.op !== 'invoke' || typeof request.artifact?.source !== 'string') return request;
    const { sha256 } = request.artifact;
    if (this.knownSources.has(sha256) && !this.pending.get(request.id)?.withSource) {
      return { ...request, artifact: { format: request.artifact.format, sha256, scriptContract: request.artifact.scriptContract } };
    }
    if (this.knownSources.size >= MAX_KNOWN_SOURCES) this.knownSources.clear();
    this.knownSources.add(sha256);
    return request;
  }

  /** Inquiry step: runs the next suspect alone, or blames the last one once all the others passed alone. */
  private nextSuspect(): void {
    const suspects = this.suspects!;
    if (this.solo) return;
    while (suspects.length > 0 && !this.pending.has(suspects[0].request.id)) suspects.shift();
    if (suspects.length === 1) {
      // Every other suspect ran alone without harm: the crash was this call's.
      this.endInquiry();
      this.fail(suspects[0], 'memory_limit');
      this.events.crashed(suspects[0].blameKey, 'the sandbox host died during a call (isolated by running the suspects alone)');
      this.scheduleFlush();
      return;
    }
    if (suspects.length === 0) {
      this.endInquiry();
      this.scheduleFlush();
      return;
    }
    this.solo = suspects.shift()!;
    this.send([this.solo.request]);
  }

  private endInquiry(): void {
    this.suspects = null;
    this.solo = null;
  }

  private ensureChild(): void {
    if (this.child || this.closed) return;
    // Under ts-jest this file is TypeScript: the host then needs ts-node to load.
    const entry = join(__dirname, `sandbox-host${extname(__filename)}`);
    const execArgv = ['--no-node-snapshot', ...(entry.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only'] : [])];
    const child = fork(entry, [], {
      execArgv,
      // Nothing of the service's environment (database URL, secrets) is the host's business.
      env: { NODE_ENV: process.env.NODE_ENV ?? 'production', UPLINK_SANDBOX_LIMITS: JSON.stringify(this.limits) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    this.ready = false;
    child.on('message', (message: HostMessage) => this.receive(message));
    child.once('exit', () => this.exited(child));
    child.once('error', () => {
      // A process that never started sends no 'exit'.
      if (child.pid === undefined) this.exited(child);
      else child.kill('SIGKILL');
    });
  }

  private receive(message: HostMessage): void {
    if ('ready' in message) {
      this.ready = true;
      this.failedStarts = 0;
      this.flush();
    } else if ('replies' in message) {
      for (const reply of message.replies) this.settle(reply);
      this.events.stats(message.stats);
    } else if ('fatal' in message) {
      const { tenantId, reason } = message.fatal;
      this.blame.set(tenantId, /memory/i.test(reason) ? 'memory_limit' : 'timeout');
      this.events.crashed(tenantId, reason);
    }
  }

  private settle(reply: HostReply): void {
    const entry = this.pending.get(reply.id);
    if (!entry) return;
    this.dequeued(entry.blameKey);
    if (reply.missingSource && entry.withSource) reply = { id: reply.id, failure: 'The sandbox host lost a source it was just sent.' };
    else if (reply.missingSource) {
      // The host dropped the source from its cache: the same call again, with it.
      entry.withSource = true;
      if (entry.request.op === 'invoke') this.knownSources.delete(entry.request.artifact.sha256);
      if (this.solo === entry) this.send([entry.request]);
      else {
        this.outbox.unshift(entry.request);
        this.scheduleFlush();
      }
      return;
    }
    this.pending.delete(reply.id);
    if (reply.failure !== undefined) entry.reject(new HostCrashedError(null, reply.failure));
    else entry.resolve(reply.value);
    if (this.solo === entry) {
      this.solo = null;
      this.scheduleFlush();
    }
    this.refWhileBusy();
  }

  private exited(child: ChildProcess): void {
    if (this.child !== child) return;
    const wasReady = this.ready;
    this.child = null;
    this.ready = false;
    this.queued.clear();
    this.knownSources.clear();
    const sent = [...this.pending.values()].filter((entry) => entry.deadline !== null);
    for (const entry of sent) entry.deadline = null;
    const retry = this.closed ? [] : this.attribute(sent);
    this.blame.clear();
    this.outbox = [...retry.map((entry) => entry.request), ...this.outbox];
    if (!wasReady) this.failedStarts += 1;
    if (this.failedStarts >= MAX_FAILED_STARTS) {
      // The host cannot even start: no script is to blame, and trying again would only loop.
      this.failedStarts = 0;
      this.outbox = [];
      this.endInquiry();
      for (const entry of [...this.pending.values()]) {
        this.pending.delete(entry.request.id);
        entry.reject(new HostCrashedError(null, 'The sandbox host cannot start.'));
      }
    }
    if (this.outbox.length > 0 || this.suspects) this.ensureChild();
    this.refWhileBusy();
  }

  /** Fails the calls to blame for the crash that just happened; returns the calls to send again. */
  private attribute(sent: Pending[]): Pending[] {
    if (this.solo) {
      // A suspect running alone took the host down: it is the culprit; the others go back to normal service.
      const culprit = this.solo;
      const others = (this.suspects ?? []).filter((entry) => this.pending.has(entry.request.id));
      this.endInquiry();
      this.fail(culprit, this.blame.get(culprit.blameKey) ?? 'memory_limit');
      this.events.crashed(culprit.blameKey, 'the sandbox host died during a call running alone');
      return [...others, ...sent.filter((entry) => entry !== culprit)];
    }
    if (this.blame.size > 0) {
      for (const entry of sent) {
        const code = this.blame.get(entry.blameKey);
        if (code) this.fail(entry, code);
      }
      return sent.filter((entry) => this.pending.has(entry.request.id));
    }
    // Nobody was named: any call sent and not answered may have been running (the host runs a tenant's calls that
    // arrive together as one batch).
    if (sent.length === 1) {
      this.fail(sent[0], 'memory_limit');
      this.events.crashed(sent[0].blameKey, 'the sandbox host died during the only call running');
    } else if (sent.length > 1) {
      // Newest first: the call that has been running longest is the likeliest culprit, so it tends to be the
      // last one left, blamed without running again.
      this.suspects = [...(this.suspects ?? []), ...[...sent].sort((a, b) => b.request.id - a.request.id)];
      this.events.crashed(null, `the sandbox host died with ${sent.length} calls running; running them alone to find the culprit`);
    } else if (!this.closed) {
      this.events.crashed(null, 'the sandbox host exited');
    }
    return [];
  }

  private fail(entry: Pending, code: 'timeout' | 'memory_limit'): void {
    this.pending.delete(entry.request.id);
    entry.reject(new HostCrashedError(code, 'The sandbox host failed during the call.'));
  }

  /** A host that has not answered a call by its deadline is wedged: kill it, blaming the late calls' tenants. */
  private sweep(): void {
    const now = Date.now();
    let wedged = false;
    for (const entry of this.pending.values()) {
      if (entry.deadline !== null && entry.deadline < now) {
        this.blame.set(entry.blameKey, 'timeout');
        wedged = true;
      }
    }
    if (wedged) {
      this.events.crashed([...this.blame.keys()].join(','), 'the sandbox host stopped answering');
      this.child?.kill('SIGKILL');
    }
  }

  private dequeued(blameKey: string): void {
    const count = (this.queued.get(blameKey) ?? 1) - 1;
    if (count > 0) this.queued.set(blameKey, count);
    else this.queued.delete(blameKey);
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /** An idle host must not keep the service (or a test run) alive; a busy one must. */
  private refWhileBusy(): void {
    const child = this.child as (ChildProcess & { channel?: { ref(): void; unref(): void } | null }) | null;
    if (!child) return;
    if (this.pending.size > 0) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
      this.stopSweeper();
    }
  }
}
