/*
 * Entry point of the sandbox host: a child process of the service that owns every isolate. isolated-vm cannot
 * contain every failure: a V8 out-of-memory on one large allocation (a growing Map, Set or dictionary object)
 * or a script that ignores termination wedges its thread for good and makes process exit hang. Here, such a
 * failure costs a SIGKILL and a restart of this process, never the service.
 *
 * Protocol (IPC, JSON): the parent sends { requests: HostRequest[] }; this process answers { replies, stats }
 * in batches, and { fatal } right before it kills itself.
 */
import { SandboxEngine } from '../isolate/sandbox-engine';
import type { SandboxLimits } from '../sandbox-limits';
import type { HostMessage, HostReply, HostRequest } from './host-protocol';

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

async function handle(request: HostRequest): Promise<unknown> {
  switch (request.op) {
    case 'invoke':
      return engine.invoke(request.tenantId, request.blockVersionId, request.artifact, request.msgJson, request.ctxJson);
    case 'compile':
      return engine.compile(request.source);
    case 'gate':
      return engine.gate(request.blameKey, request.source, request.sampleInput, request.configurationSchema);
  }
}

process.on('message', (message: { requests: HostRequest[] }) => {
  for (const request of message.requests) {
    handle(request).then(
      (value) => reply({ id: request.id, value }),
      (error: unknown) => reply({ id: request.id, failure: String((error as { message?: unknown })?.message ?? error) }),
    );
  }
});

// The parent going away (crash, SIGKILL) must not leave this process behind.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
send({ ready: true });
