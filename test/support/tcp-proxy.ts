import { createServer, Server, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, to simulate the database going away
 * without stopping the server other test files share.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    readonly port: number,
  ) {}

  static async start(targetUrl: string): Promise<TcpProxy> {
    const target = new URL(targetUrl);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432), 0);
    await proxy.listen(0);
    return proxy;
  }

  /** The same URL, pointing at the proxy. */
  rewrite(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String(this.port);
    return parsed.toString();
  }

  /** Drops every open connection and refuses new ones. */
  async cut(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    const server = this.server;
    this.server = null;
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  async restore(): Promise<void> {
    if (this.server) return;
    await this.listen(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => {
      const upstream = new Socket();
      this.sockets.add(client).add(upstream);
      const drop = (): void => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.connect(this.targetPort, this.targetHost, () => {
        client.pipe(upstream).pipe(client);
      });
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        if (typeof address === 'object' && address) (this as { port: number }).port = address.port;
        resolve();
      });
    });
  }
}
