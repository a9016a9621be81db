import { Agent, Dispatcher, errors as undiciErrors, request } from 'undici';
import { BaseUrlPolicy, SourceBase } from '../domain/base-url-policy';
import { isLoginAnswer, isPageAnswer, isTenantRecord } from './legacy-source.schemas';
import { SourceFailure } from './source-failure';

/** What one import may read from the source, and how long it may take. */
export interface SourceLimits {
  tenants: number;
  deviceTypes: number;
  devices: number;
  /** Each call, from connecting to the last byte of its answer. */
  callTimeoutMs: number;
  /** All calls of one import together. */
  totalTimeoutMs: number;
  /** One answer's body; a longer one is cut off while streaming, never buffered whole. */
  maxResponseBytes: number;
  /** All answers of one import together. */
  maxTotalBytes: number;
}

export const SOURCE_LIMITS: SourceLimits = {
  tenants: 200,
  deviceTypes: 1000,
  devices: 20_000,
  callTimeoutMs: 10_000,
  totalTimeoutMs: 60_000,
  maxResponseBytes: 16 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
};

/** A device type or device record with the source tenant it was listed under. */
export interface SourceRecord {
  sourceTenantId: string;
  record: Record<string, unknown>;
}

/** Everything the supplied credentials can see, in source order. */
export interface LegacySnapshot {
  tenantCount: number;
  deviceTypes: SourceRecord[];
  devices: SourceRecord[];
}

export interface SourceCredentials {
  username: string;
  password: string;
}

/**
 * Reads a legacy system's snapshot: login, then every page of tenants, and of each tenant's device types and
 * devices, following `next` until it is null. No redirect is followed; every call is checked against the accepted
 * address pattern before it is sent; each call has its own time limit inside the import's total one; answers are
 * size-capped while they stream. Credentials and the source's access token live only in this call's locals and
 * the requests it sends: they appear in no error, log line or return value.
 */
export class LegacySourceClient {
  constructor(
    private readonly policy: BaseUrlPolicy,
    private readonly limits: SourceLimits = SOURCE_LIMITS,
  ) {}

  async fetchSnapshot(base: SourceBase, credentials: SourceCredentials): Promise<LegacySnapshot> {
    const total = new AbortController();
    const timer = setTimeout(() => total.abort(), this.limits.totalTimeoutMs);
    // A private connection pool per import, closed at the end: no socket (nor anything sent on it) outlives it.
    const agent = new Agent({ connect: { timeout: this.limits.callTimeoutMs }, pipelining: 0 });
    const session = new SourceSession(this.policy, this.limits, base, agent, total.signal);
    try {
      const token = await session.login(credentials);
      const tenants = await session.list('tenants', token, this.limits.tenants);
      const tenantIds: string[] = [];
      for (const tenant of tenants) {
        if (!isTenantRecord(tenant)) throw new SourceFailure('source_invalid_response', 'A tenant of the source has no id or name.');
        tenantIds.push(String(tenant.id));
      }
      const snapshot: LegacySnapshot = { tenantCount: tenantIds.length, deviceTypes: [], devices: [] };
      for (const sourceTenantId of tenantIds) {
        const path = `tenants/${encodeURIComponent(sourceTenantId)}`;
        const types = await session.list(`${path}/device-types`, token, this.limits.deviceTypes - snapshot.deviceTypes.length);
        for (const record of types) snapshot.deviceTypes.push({ sourceTenantId, record });
      }
      for (const sourceTenantId of tenantIds) {
        const path = `tenants/${encodeURIComponent(sourceTenantId)}`;
        const devices = await session.list(`${path}/devices`, token, this.limits.devices - snapshot.devices.length);
        for (const record of devices) snapshot.devices.push({ sourceTenantId, record });
      }
      return snapshot;
    } finally {
      clearTimeout(timer);
      await agent.destroy().catch(() => undefined);
    }
  }
}

/** The calls of one import: shared deadline, byte budget and connection pool. */
class SourceSession {
  private bytesRead = 0;

  constructor(
    private readonly policy: BaseUrlPolicy,
    private readonly limits: SourceLimits,
    private readonly base: SourceBase,
    private readonly agent: Dispatcher,
    private readonly total: AbortSignal,
  ) {}

  async login(credentials: SourceCredentials): Promise<string> {
    const answer = await this.call('login', 'auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: credentials.username, password: credentials.password }),
    });
    if (!isLoginAnswer(answer)) throw new SourceFailure('source_invalid_response', 'The source login answered without an accessToken.');
    return answer.accessToken;
  }

  /** Every item of a list, page after page; more than `room` items in all is `source_too_large`. */
  async list(path: string, token: string, room: number): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `?cursor=${encodeURIComponent(cursor)}`;
      const answer = await this.call(path, `${path}${query}`, { method: 'GET', headers: { authorization: `Bearer ${token}` } });
      if (!isPageAnswer(answer)) throw new SourceFailure('source_invalid_response', `The source's ${describe(path)} page is not {items, next}.`);
      items.push(...answer.items);
      if (items.length > room) throw new SourceFailure('source_too_large', `The source has more ${describe(path)} than one import takes.`);
      if (answer.next !== null && seen.has(answer.next)) {
        throw new SourceFailure('source_invalid_response', `The source's ${describe(path)} pages repeat a cursor.`);
      }
      cursor = answer.next;
      if (cursor !== null) seen.add(cursor);
    } while (cursor !== null);
    return items;
  }

  /** One call: its URL checked, sent without following redirects, answered 200 with JSON within the limits. */
  private async call(name: string, relative: string, options: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }): Promise<unknown> {
    const url = this.policy.requestUrl(this.base, relative);
    if (this.total.aborted) throw timeout(name);
    const signal = AbortSignal.any([this.total, AbortSignal.timeout(this.limits.callTimeoutMs)]);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        ...options,
        headers: { accept: 'application/json', ...options.headers },
        dispatcher: this.agent,
        signal,
        headersTimeout: this.limits.callTimeoutMs,
        bodyTimeout: this.limits.callTimeoutMs,
      });
    } catch (error) {
      throw signal.aborted || isTimeout(error) ? timeout(name) : new SourceFailure('source_unreachable', `The source could not be reached (${describe(name)}).`);
    }
    const { statusCode, body, headers } = response;
    if (statusCode !== 200) {
      discard(body);
      if (statusCode === 401 || statusCode === 403) {
        throw new SourceFailure('source_authentication_failed', `The source refused the credentials (${describe(name)}: ${statusCode}).`);
      }
      if (statusCode >= 500) throw new SourceFailure('source_unreachable', `The source failed to answer (${describe(name)}: ${statusCode}).`);
      const redirect = statusCode >= 300 && statusCode < 400 ? ', redirects are not followed' : '';
      throw new SourceFailure('source_invalid_response', `The source answered ${statusCode} (${describe(name)}${redirect}).`);
    }
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.limits.maxResponseBytes) {
      discard(body);
      throw tooLarge(name);
    }
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        length += chunk.length;
        this.bytesRead += chunk.length;
        if (length > this.limits.maxResponseBytes || this.bytesRead > this.limits.maxTotalBytes) {
          discard(body);
          throw tooLarge(name);
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof SourceFailure) throw error;
      if (signal.aborted || isTimeout(error)) throw timeout(name);
      throw new SourceFailure('source_invalid_response', `The source's answer broke off (${describe(name)}).`);
    }
    try {
      return JSON.parse(Buffer.concat(chunks, length).toString('utf8')) as unknown;
    } catch {
      throw new SourceFailure('source_invalid_response', `The source's answer is not JSON (${describe(name)}).`);
    }
  }
}

/** Stops reading an answer and closes its connection; the abort it causes is expected, not an error. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** A call named without its source ids: `tenants/42/devices` → `devices`. */
const describe = (path: string): string => path.split('/').at(-1) ?? path;

const timeout = (name: string) => new SourceFailure('source_timeout', `The source did not answer in time (${describe(name)}).`);
const tooLarge = (name: string) => new SourceFailure('source_too_large', `The source's answer is larger than one import takes (${describe(name)}).`);

function isTimeout(error: unknown): boolean {
  return (
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError ||
    error instanceof undiciErrors.ConnectTimeoutError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
  );
}
