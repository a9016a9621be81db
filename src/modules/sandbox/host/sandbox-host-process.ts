import { ChildProcess, fork } from 'node:child_process';
import { extname, join } from 'node:path';
import type { SandboxLimits } from '../sandbox-limits';
import type { HostMessage, HostReply, HostRequest, HostStats } from './host-protocol';

type Operation = HostRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** The host died under a call: `code` names the limit its tenant hit, null when the call was not to blame. */
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
  /** The host killed itself or was killed; `tenantId` is the one to blame, when known. */
  crashed(tenantId: string | null, reason: string): void;
}

interface Pending {
  request: HostRequest;
  tenantId: string;
  /** Set when sent to a ready host: past it, the host counts as wedged. */
  deadline: number | null;
  retried: boolean;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** Beyond the time a queue of calls may take: room for a loaded machine before a wedged host is assumed. */
const GRACE_MS = 3000;
const SWEEP_INTERVAL_MS = 100;

/**
 * The parent's side of the sandbox host (sandbox-host.ts): starts it on demand, batches requests and replies
 * (one IPC message per event-loop turn each way), and replaces it when it dies. A host that dies, or stops
 * answering within the time its queued calls can take, is SIGKILLed; the calls of the tenant to blame fail
 * with its limit, every other call in flight is retried once on the new host.
 */
export class SandboxHostProcess {
  private child: ChildProcess | null = null;
  private ready = false;
  private closed = false;
  private nextId = 1;
  private outbox: HostRequest[] = [];
  private flushScheduled = false;
  private readonly pending = new Map<number, Pending>();
  private readonly queued = new Map<string, number>();
  private readonly blame = new Map<string, 'timeout' | 'memory_limit'>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly limits: SandboxLimits,
    private readonly events: HostEvents,
  ) {}

  request(tenantId: string, operation: Operation): Promise<unknown> {
    if (this.closed) return Promise.reject(new HostCrashedError(null, 'The sandbox is shut down.'));
    return new Promise((resolve, reject) => {
      const request = { ...operation, id: this.nextId++ } as HostRequest;
      this.pending.set(request.id, { request, tenantId, deadline: null, retried: false, resolve, reject });
      this.enqueue(request);
    });
  }

  dispose(): void {
    this.closed = true;
    this.child?.kill('SIGKILL');
    for (const entry of this.pending.values()) entry.reject(new HostCrashedError(null, 'The sandbox is shut down.'));
    this.pending.clear();
    this.stopSweeper();
  }

  private enqueue(request: HostRequest): void {
    this.outbox.push(request);
    this.ensureChild();
    this.refWhileBusy();
    if (this.ready && !this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    if (!this.ready || !this.child || this.outbox.length === 0) return;
    const requests = this.outbox;
    this.outbox = [];
    const now = Date.now();
    for (const request of requests) {
      const entry = this.pending.get(request.id);
      if (!entry) continue;
      // Calls of one tenant run one after another in its isolate: each may wait for those queued before it.
      const ahead = this.queued.get(entry.tenantId) ?? 0;
      this.queued.set(entry.tenantId, ahead + 1);
      entry.deadline = now + (ahead + 1) * 4 * this.limits.timeoutMs + GRACE_MS;
    }
    this.child.send({ requests });
    this.startSweeper();
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
    this.pending.delete(reply.id);
    this.dequeued(entry.tenantId);
    if (reply.failure !== undefined) entry.reject(new HostCrashedError(null, reply.failure));
    else entry.resolve(reply.value);
    this.refWhileBusy();
  }

  private exited(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = null;
    this.ready = false;
    this.queued.clear();
    if (this.blame.size === 0 && !this.closed) this.events.crashed(null, 'the sandbox host exited');
    const retry: HostRequest[] = [];
    for (const [id, entry] of this.pending) {
      if (entry.deadline === null) continue; // never sent: still in the outbox
      entry.deadline = null;
      const code = this.blame.get(entry.tenantId);
      if (code || entry.retried || this.closed) {
        this.pending.delete(id);
        entry.reject(new HostCrashedError(code ?? null, 'The sandbox host failed during the call.'));
      } else {
        entry.retried = true;
        retry.push(entry.request);
      }
    }
    this.blame.clear();
    this.outbox = [...retry, ...this.outbox];
    if (this.outbox.length > 0) this.ensureChild();
    this.refWhileBusy();
  }

  /** A host that has not answered a call by its deadline is wedged: kill it, blaming the late calls' tenants. */
  private sweep(): void {
    const now = Date.now();
    let wedged = false;
    for (const entry of this.pending.values()) {
      if (entry.deadline !== null && entry.deadline < now) {
        this.blame.set(entry.tenantId, 'timeout');
        wedged = true;
      }
    }
    if (wedged) {
      this.events.crashed([...this.blame.keys()].join(','), 'the sandbox host stopped answering');
      this.child?.kill('SIGKILL');
    }
  }

  private dequeued(tenantId: string): void {
    const count = (this.queued.get(tenantId) ?? 1) - 1;
    if (count > 0) this.queued.set(tenantId, count);
    else this.queued.delete(tenantId);
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
