import ivm from 'isolated-vm';
import type { Envelope } from '../domain/script-output';
import type { ScriptArtifact } from '../domain/sandbox-contract';
import { MAX_CONTEXTS_PER_ISOLATE, SandboxLimits } from '../sandbox-limits';
import { releaseQuietly, ScriptContext } from './script-context';

export interface PoolObserver {
  /** Live isolates, including evicted ones still finishing a call. */
  isolatesChanged(count: number): void;
  /** Sum of the last sampled heap use of the pooled isolates, bytes. */
  heapChanged(bytes: number): void;
  catastrophicError(tenantId: string, message: string): void;
}

const HEAP_SAMPLE_INTERVAL_MS = 1000;

interface ContextSlot {
  sha256: string;
  ready: Promise<ScriptContext | Envelope>;
  users: number;
  retired: boolean;
}

/**
 * One tenant's isolate and its block-version contexts (bounded, least recently used dropped first). Slots and
 * isolates count their users synchronously, so an eviction never releases something a call is about to use.
 */
export class TenantIsolate {
  users = 0;
  retired = false;
  heapUsedBytes = 0;
  private lastHeapSample = 0;
  private disposed = false;
  private readonly contexts = new Map<string, ContextSlot>();

  constructor(
    readonly tenantId: string,
    readonly isolate: ivm.Isolate,
  ) {}

  /** Runs `use` on the context of this block version, building it first if needed (or its top-level failure). */
  async withContext<T>(
    blockVersionId: string,
    artifact: ScriptArtifact,
    timeoutMs: number,
    use: (context: ScriptContext) => Promise<T>,
  ): Promise<T | Envelope> {
    let slot = this.contexts.get(blockVersionId);
    if (slot && slot.sha256 !== artifact.sha256) {
      this.dropSlot(blockVersionId, slot);
      slot = undefined;
    }
    if (slot) {
      this.contexts.delete(blockVersionId);
      this.contexts.set(blockVersionId, slot);
    } else {
      slot = { sha256: artifact.sha256, ready: ScriptContext.create(this.isolate, artifact, timeoutMs), users: 0, retired: false };
      this.contexts.set(blockVersionId, slot);
      this.trimContexts();
    }
    slot.users += 1;
    try {
      const ready = await slot.ready.catch((error: unknown) => {
        this.dropSlot(blockVersionId, slot);
        throw error;
      });
      if (!(ready instanceof ScriptContext)) {
        // Top-level code failed: nothing to keep; the next call tries again.
        this.dropSlot(blockVersionId, slot);
        return ready;
      }
      return await use(ready);
    } finally {
      slot.users -= 1;
      this.releaseSlotIfDone(slot);
    }
  }

  /** Re-samples the heap at most once a second; resolves true when it did. */
  async sampleHeap(now: number): Promise<boolean> {
    if (now - this.lastHeapSample < HEAP_SAMPLE_INTERVAL_MS || this.isolate.isDisposed) return false;
    this.lastHeapSample = now;
    try {
      const stats = await this.isolate.getHeapStatistics();
      this.heapUsedBytes = stats.used_heap_size + stats.externally_allocated_size;
      return true;
    } catch {
      return false; // disposed meanwhile
    }
  }

  /** Frees the isolate; false if an earlier call already did. */
  dispose(): boolean {
    if (this.disposed) return false;
    this.disposed = true;
    for (const [id, slot] of this.contexts) this.dropSlot(id, slot);
    if (!this.isolate.isDisposed) releaseQuietly({ release: () => this.isolate.dispose() });
    return true;
  }

  private trimContexts(): void {
    for (const [id, slot] of this.contexts) {
      if (this.contexts.size <= MAX_CONTEXTS_PER_ISOLATE) return;
      this.dropSlot(id, slot);
    }
  }

  private dropSlot(id: string, slot: ContextSlot): void {
    if (this.contexts.get(id) === slot) this.contexts.delete(id);
    slot.retired = true;
    this.releaseSlotIfDone(slot);
  }

  private releaseSlotIfDone(slot: ContextSlot): void {
    if (!slot.retired || slot.users > 0) return;
    slot.ready.then(
      (ready) => ready instanceof ScriptContext && ready.release(),
      () => undefined,
    );
  }
}

/**
 * One isolate per tenant, created on first use; at most `maxIsolates` pooled, the least recently used idle one
 * disposed beyond that. A disposed isolate (memory limit) is dropped at once, so the tenant's next call gets a
 * fresh one.
 */
export class IsolatePool {
  private readonly isolates = new Map<string, TenantIsolate>();
  private live = 0;

  constructor(
    private readonly limits: SandboxLimits,
    private readonly observer: PoolObserver,
  ) {}

  async run<T>(tenantId: string, use: (tenant: TenantIsolate) => Promise<T>): Promise<T> {
    const tenant = this.acquire(tenantId);
    try {
      return await use(tenant);
    } finally {
      tenant.users -= 1;
      if (tenant.isolate.isDisposed) this.remove(tenant);
      else if (tenant.retired) this.disposeIfIdle(tenant);
      else this.trim();
      void this.sample(tenant);
    }
  }

  /** A fresh isolate for one-off work outside the pool (compile, gates); `blameKey` answers for its failures. */
  createIsolate(blameKey: string): ivm.Isolate {
    return new ivm.Isolate({
      memoryLimit: this.limits.memoryMb,
      onCatastrophicError: (message) => this.observer.catastrophicError(blameKey, message),
    });
  }

  /**
   * Drops a tenant's isolate after it hit the memory limit (whatever filled it may be held by any of its
   * contexts): disposed once its running calls end, so the tenant's next call starts in a fresh one.
   */
  discard(tenant: TenantIsolate): void {
    this.remove(tenant);
  }

  dispose(): void {
    for (const tenant of [...this.isolates.values()]) this.remove(tenant);
  }

  private acquire(tenantId: string): TenantIsolate {
    let tenant = this.isolates.get(tenantId);
    if (tenant?.isolate.isDisposed) {
      this.remove(tenant);
      tenant = undefined;
    }
    if (tenant) {
      this.isolates.delete(tenantId);
      this.isolates.set(tenantId, tenant);
    } else {
      const isolate = new ivm.Isolate({
        memoryLimit: this.limits.memoryMb,
        onCatastrophicError: (message) => this.observer.catastrophicError(tenantId, message),
      });
      tenant = new TenantIsolate(tenantId, isolate);
      this.isolates.set(tenantId, tenant);
      this.live += 1;
      this.observer.isolatesChanged(this.live);
    }
    tenant.users += 1;
    this.trim();
    return tenant;
  }

  /** Disposes least recently used idle isolates while over the limit; busy ones may exceed it briefly. */
  private trim(): void {
    for (const tenant of this.isolates.values()) {
      if (this.isolates.size <= this.limits.maxIsolates) return;
      if (tenant.users === 0) this.remove(tenant);
    }
  }

  private remove(tenant: TenantIsolate): void {
    if (this.isolates.get(tenant.tenantId) === tenant) this.isolates.delete(tenant.tenantId);
    tenant.retired = true;
    this.disposeIfIdle(tenant);
  }

  private disposeIfIdle(tenant: TenantIsolate): void {
    if (tenant.users > 0 || !tenant.dispose()) return;
    this.live -= 1;
    this.observer.isolatesChanged(this.live);
    this.publishHeap();
  }

  private async sample(tenant: TenantIsolate): Promise<void> {
    if (tenant.retired) return;
    if (await tenant.sampleHeap(Date.now())) this.publishHeap();
  }

  private publishHeap(): void {
    let bytes = 0;
    for (const tenant of this.isolates.values()) bytes += tenant.heapUsedBytes;
    this.observer.heapChanged(bytes);
  }
}
