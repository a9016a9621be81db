import type { Server } from 'node:http';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { ShutdownState } from '../shared/lifecycle/shutdown-state';

/**
 * SIGTERM sequence: readiness turns 503 at once, the server stops accepting at once, in-flight requests finish
 * (after `timeoutMs` the remaining connections are cut), and only then Nest's shutdown hooks run (job worker drain,
 * LISTEN connections, the pool, an embedded PostgreSQL). The listening socket is closed here rather than by Nest,
 * which would close it only after every shutdown hook.
 */
export async function shutdownGracefully(app: INestApplication, timeoutMs: number, logger: LoggerService): Promise<void> {
  app.get(ShutdownState).begin();
  const server = app.getHttpServer() as Server;
  const drained = new Promise<void>((resolve) => server.close(() => resolve()));
  const force = setTimeout(() => {
    logger.warn(`Shutdown timeout of ${timeoutMs} ms reached; closing remaining connections`, 'Shutdown');
    server.closeAllConnections();
  }, timeoutMs);
  force.unref();
  try {
    await drained;
    await app.close();
  } finally {
    clearTimeout(force);
  }
}
