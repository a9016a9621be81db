import { Worker } from 'node:worker_threads';

/**
 * A TCP proxy in front of PostgreSQL that a test can cut and restore, to simulate the database going away
 * without stopping the server other test files share.
 *
 * The proxy runs in a worker thread with an event loop of its own, like a database in another process: when the
 * test's loop stalls (a major collection of a heap grown over an in-band run, a loaded machine), answers still
 * reach the app's sockets during the stall, so a probe's timeout sees them as it would with a real database.
 */
export class TcpProxy {
  private nextRequest = 0;
  private readonly pending = new Map<number, { resolve: (port: number) => void; reject: (error: Error) => void }>();

  private constructor(
    private readonly worker: Worker,
    readonly port: number,
  ) {
    worker.on('message', (message: { id: number; port?: number; error?: string }) => {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error));
      else waiter?.resolve(message.port ?? 0);
    });
    worker.on('error', (error) => {
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    });
  }

  static async start(targetUrl: string): Promise<TcpProxy> {
    const target = new URL(targetUrl);
    const worker = new Worker(PROXY_SOURCE, {
      eval: true,
      workerData: { host: target.hostname, port: Number(target.port || 5432) },
    });
    const starting = new TcpProxy(worker, 0);
    const port = await starting.send('listen', 0);
    (starting as { port: number }).port = port;
    return starting;
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
    await this.send('cut');
  }

  async restore(): Promise<void> {
    await this.send('listen', this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
    await this.worker.terminate();
  }

  private send(command: 'listen' | 'cut', port = 0): Promise<number> {
    const id = ++this.nextRequest;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, command, port });
    });
  }
}

/** The worker's code: plain JavaScript, since the worker loads no TypeScript. */
const PROXY_SOURCE = `
const { createServer, Socket } = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const sockets = new Set();
let server = null;

function listen(port) {
  if (server) return Promise.resolve(server.address().port);
  const created = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.connect(workerData.port, workerData.host, () => client.pipe(upstream).pipe(client));
  });
  return new Promise((resolve, reject) => {
    created.once('error', reject);
    created.listen(port, '127.0.0.1', () => {
      server = created;
      resolve(created.address().port);
    });
  });
}

function cut() {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  const closing = server;
  server = null;
  return new Promise((resolve) => (closing ? closing.close(() => resolve(0)) : resolve(0)));
}

parentPort.on('message', ({ id, command, port }) => {
  const done = command === 'listen' ? listen(port) : cut();
  done.then(
    (answer) => parentPort.postMessage({ id, port: answer }),
    (error) => parentPort.postMessage({ id, error: String(error && error.message || error) }),
  );
});
`;
