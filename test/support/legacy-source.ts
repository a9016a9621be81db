import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A legacy system for the snapshot import, on `node:http` on a free loopback port: the source contract
 * (`POST /auth/login`, `GET /tenants`, `GET /tenants/{id}/device-types`, `GET /tenants/{id}/devices`, pages of
 * `{items, next}`), and every way such a system misbehaves, set per call kind.
 */

export interface LegacyTenant {
  id: string | number;
  name: string;
  deviceTypes: Record<string, unknown>[];
  devices: Record<string, unknown>[];
}

export type CallKind = 'login' | 'tenants' | 'device-types' | 'devices';

export type Misbehaviour =
  /** Answers normally after `ms` (every call of the kind). */
  | { kind: 'delay'; ms: number }
  /** Answers this status with an empty JSON object. */
  | { kind: 'status'; status: number }
  /** Answers 200 with this exact body. */
  | { kind: 'body'; body: string }
  /** Streams JSON-looking bytes without end (or until the client goes away). */
  | { kind: 'endless' }
  /** Answers 302 to `location`. */
  | { kind: 'redirect'; location: string }
  /** Sends the headers and half a body, then destroys the connection. */
  | { kind: 'cut' };

export interface SeenRequest {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

export class LegacySource {
  username = 'legacy-migrator';
  password = `legacy-pw-${randomBytes(6).toString('hex')}`;
  /** The token login hands out; tests grep for it too. */
  readonly accessToken = `legacy-token-${randomBytes(12).toString('hex')}`;
  tenants: LegacyTenant[] = [];
  pageSize = 100;
  readonly misbehaviour = new Map<CallKind, Misbehaviour>();
  readonly requests: SeenRequest[] = [];
  /** Bytes written by `endless` answers, to show the client stopped reading. */
  endlessBytes = 0;
  private server: Server | null = null;
  private baseUrl = '';

  /** Listens on a free loopback port; resolves to the base URL (`http://127.0.0.1:<port>/api`). */
  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api`;
    return this.baseUrl;
  }

  get url(): string {
    return this.baseUrl;
  }

  /** Back to well-behaved, empty and unvisited. */
  reset(): void {
    this.tenants = [];
    this.pageSize = 100;
    this.misbehaviour.clear();
    this.requests.length = 0;
    this.endlessBytes = 0;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server!.close(() => done()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
    const url = new URL(req.url ?? '/', 'http://source');
    const route = this.route(req.method ?? '', url.pathname);
    if (!route) return this.json(res, 404, { error: 'not found' });
    const misbehaviour = this.misbehaviour.get(route.kind);
    if (misbehaviour?.kind === 'delay') await new Promise((done) => setTimeout(done, misbehaviour.ms));
    if (res.destroyed) return;
    switch (misbehaviour?.kind) {
      case 'status':
        return this.json(res, misbehaviour.status, {});
      case 'body':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(misbehaviour.body);
      case 'redirect':
        res.writeHead(302, { location: misbehaviour.location });
        return void res.end();
      case 'endless':
        return this.endless(res);
      case 'cut':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
        res.write('{"items":[{"id":"1","name":"half');
        setTimeout(() => res.destroy(), 50);
        return;
    }
    if (route.kind === 'login') {
      let credentials: { username?: unknown; password?: unknown } = {};
      try {
        credentials = JSON.parse(body) as typeof credentials;
      } catch {
        return this.json(res, 400, { error: 'bad json' });
      }
      if (credentials.username !== this.username || credentials.password !== this.password) return this.json(res, 401, { error: 'bad credentials' });
      return this.json(res, 200, { accessToken: this.accessToken, expiresIn: 3600 });
    }
    if (req.headers.authorization !== `Bearer ${this.accessToken}`) return this.json(res, 401, { error: 'no token' });
    const items = this.itemsOf(route.kind, route.tenantId);
    if (!items) return this.json(res, 404, { error: 'no such tenant' });
    const offset = Number(url.searchParams.get('cursor')?.replace(/^page-/, '') ?? 0);
    const next = offset + this.pageSize < items.length ? `page-${offset + this.pageSize}` : null;
    return this.json(res, 200, { items: items.slice(offset, offset + this.pageSize), next });
  }

  private route(method: string, pathname: string): { kind: CallKind; tenantId?: string } | null {
    if (method === 'POST' && pathname === '/api/auth/login') return { kind: 'login' };
    if (method !== 'GET') return null;
    if (pathname === '/api/tenants') return { kind: 'tenants' };
    const match = /^\/api\/tenants\/([^/]+)\/(device-types|devices)$/.exec(pathname);
    return match ? { kind: match[2] as CallKind, tenantId: decodeURIComponent(match[1]!) } : null;
  }

  private itemsOf(kind: CallKind, tenantId: string | undefined): Record<string, unknown>[] | null {
    if (kind === 'tenants') return this.tenants.map(({ id, name }) => ({ id, name }));
    const tenant = this.tenants.find((candidate) => String(candidate.id) === tenantId);
    if (!tenant) return null;
    return kind === 'device-types' ? tenant.deviceTypes : tenant.devices;
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private endless(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.from(`{"id":"${'x'.repeat(1000)}"},`);
    res.write('{"items":[');
    const pump = (): void => {
      while (!res.destroyed && this.endlessBytes < 2 * 1024 ** 3) {
        this.endlessBytes += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  }
}

let counter = 0;
/** A devEui no other test uses (16 uppercase hex digits). */
export const legacyDevEui = (): string => randomBytes(8).toString('hex').toUpperCase();
/** A unique code for a source device type. */
export const legacyCode = (prefix = 'type'): string => `${prefix}-${process.pid}-${++counter}`;
