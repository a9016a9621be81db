import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { reportConnectionLoss, ShutdownState } from '../lifecycle/shutdown-state';

/** The PostgreSQL channel every replica listens on. */
export const AUTH_CACHE_CHANNEL = 'uplink_auth_cache';

/**
 * What a change touched. Every entry cached for one of the named sessions, users, tenants or ingestion credentials
 * is dropped: `sessionId` a session; `userId` the user's sessions and the user's grants in every tenant; `tenantId`
 * the tenant row and every user's grants in that tenant; `ingestionCredentialId` the credential its token names.
 */
export interface AuthChange {
  sessionId?: string;
  userId?: string;
  tenantId?: string;
  ingestionCredentialId?: string;
}

interface Entry {
  value: unknown;
  expiresAt: number;
  tags: readonly string[];
}

/** An invalidation made on this replica, not yet seen back as a notification: until then nothing it touched is cached. */
const PENDING_MS = 10_000;
const MAX_ENTRIES = 50_000;
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;
const HEARTBEAT_MS = 5_000;

export const tagsOf = (change: AuthChange): string[] => [
  ...(change.sessionId ? [`session:${change.sessionId}`] : []),
  ...(change.userId ? [`user:${change.userId}`] : []),
  ...(change.tenantId ? [`tenant:${change.tenantId}`] : []),
  ...(change.ingestionCredentialId ? [`ingestion-credential:${change.ingestionCredentialId}`] : []),
];

/**
 * The in-process cache of authorization state (sessions, effective grants, tenant rows, the ingestion credential
 * of a token) and its invalidation.
 *
 * An entry is used only while it is younger than `AUTH_CACHE_TTL_MS` and the replica's LISTEN connection is up:
 * whenever that connection is down the cache is bypassed (every request reads the database), and after it has
 * reconnected the cache starts empty. A change invalidates through `invalidate(manager, change)` inside its
 * transaction: the entries go at once on this replica, and `pg_notify` in the same transaction reaches every
 * replica (this one too) only if the transaction commits. Between the local invalidation and its own notification
 * coming back (the commit), this replica caches nothing the change touched, so a request racing the change cannot put the old
 * state back. A load that started before an invalidation is never stored either (`generation`).
 */
@Injectable()
export class AuthCache implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuthCache.name);
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, { until: number; tags: readonly string[] }>();
  private generation = 0;
  private live = false;
  private stopped = false;
  private client: Client | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private backoffMs = RECONNECT_MIN_MS;
  private readonly ttlMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    @Optional() private readonly shutdown?: ShutdownState,
  ) {
    this.ttlMs = config.authCacheTtlMs;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Whether cached entries are used right now (cache on and the LISTEN connection up). */
  get active(): boolean {
    return this.live;
  }

  onApplicationBootstrap(): void {
    if (this.enabled) void this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.goDown();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
  }

  /** The cached value of `key`, if the cache is in use and the entry is fresh. */
  get<T>(key: string): T | undefined {
    if (!this.live) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value as T;
  }

  /** Where a load starts: pass it to `set`, which stores only if nothing was invalidated since. */
  mark(): number {
    return this.generation;
  }

  /**
   * Stores `value` under `key`, dropped by any change to one of `tags`, for at most the TTL (or until
   * `notAfter`, epoch ms). Not stored when an invalidation happened since `mark` or is still waiting for its commit.
   */
  set(mark: number, key: string, value: unknown, tags: readonly string[], notAfter = Infinity): void {
    if (!this.live || mark !== this.generation || this.isPending(tags)) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, { value, expiresAt: Math.min(Date.now() + this.ttlMs, notAfter), tags });
  }

  /**
   * The one way a change invalidates authorization state: call it with the change's transaction manager. The
   * entries go at once here; the notification is sent by the transaction, so other replicas drop theirs when it
   * commits and never for a rolled-back change.
   */
  async invalidate(manager: EntityManager, change: AuthChange): Promise<void> {
    const tags = tagsOf(change);
    if (tags.length === 0) return;
    const origin = randomUUID();
    this.pending.set(origin, { until: Date.now() + PENDING_MS, tags });
    this.drop(tags);
    await manager.query(`SELECT pg_notify($1, $2)`, [AUTH_CACHE_CHANNEL, JSON.stringify({ origin, tags })]);
  }

  /** Drops the entries of `tags` (every entry for `*`). */
  drop(tags: readonly string[]): void {
    this.generation++;
    if (tags.includes('*')) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) {
      if (entry.tags.some((tag) => tags.includes(tag))) this.entries.delete(key);
    }
  }

  /** Applies a notification's payload (from any replica, this one included). */
  receive(payload: string | undefined): void {
    try {
      const { origin, tags } = JSON.parse(payload ?? '') as { origin?: unknown; tags?: unknown };
      if (typeof origin === 'string') this.pending.delete(origin);
      this.drop(Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : ['*']);
    } catch {
      this.drop(['*']);
    }
  }

  /** Whether a change of this replica to one of `tags` still waits for its commit (or rollback: then it expires). */
  private isPending(tags: readonly string[]): boolean {
    if (this.pending.size === 0) return false;
    const now = Date.now();
    let pending = false;
    for (const [origin, change] of this.pending) {
      if (change.until <= now) this.pending.delete(origin);
      else if (change.tags.some((tag) => tags.includes(tag))) pending = true;
    }
    return pending;
  }

  private connectionOptions(): { connectionString: string } | Record<string, unknown> {
    if (this.config.authCacheListenUrl) return { connectionString: this.config.authCacheListenUrl };
    const options = this.dataSource.options as { url?: string; host?: string; port?: number; username?: string; password?: string; database?: string };
    if (options.url) return { connectionString: options.url };
    return { host: options.host, port: options.port, user: options.username, password: options.password, database: options.database };
  }

  /** A lost LISTEN connection is a warning, unless the service is stopping. */
  private reportLost(error: Error): void {
    reportConnectionLoss(
      this.logger,
      `LISTEN connection lost (${error.message}); authorization cache bypassed until it is back`,
      () => this.stopped || this.shutdown?.isShuttingDown === true,
    );
  }

  /** A dedicated connection (LISTEN holds it), flushed and trusted only once it listens. */
  private async connect(): Promise<void> {
    this.reconnectTimer = null;
    if (this.stopped) return;
    const client = new Client({ ...this.connectionOptions(), keepAlive: true, connectionTimeoutMillis: 5_000 });
    this.client = client;
    const lost = (error?: Error): void => {
      if (this.client !== client) return;
      if (error) this.reportLost(error);
      this.goDown();
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === AUTH_CACHE_CHANNEL) this.receive(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_CACHE_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (this.client !== client || this.stopped) return;
    // Whatever changed while nobody listened is unknown: start empty.
    this.drop(['*']);
    this.backoffMs = RECONNECT_MIN_MS;
    this.live = true;
    // A connection that silently stopped answering (no RST, no FIN) is lost too.
    this.heartbeatTimer = setInterval(() => {
      const timeout = setTimeout(() => lost(new Error('no answer to the heartbeat')), HEARTBEAT_MS);
      client.query('SELECT 1').then(
        () => clearTimeout(timeout),
        (error: Error) => (clearTimeout(timeout), lost(error)),
      );
    }, HEARTBEAT_MS);
    this.heartbeatTimer.unref();
  }

  private goDown(): void {
    this.live = false;
    this.drop(['*']);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('notification');
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(RECONNECT_MAX_MS, this.backoffMs * 2);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }
}
