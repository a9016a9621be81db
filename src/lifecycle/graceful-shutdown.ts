import type { Server } from 'node:http';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { ShutdownState } from './shutdown-state';

/**
 * SIGTERM sequence: readiness turns 503 at once, the server stops accepting, in-flight requests finish (after
 * `timeoutMs` the remaining connections are cut), then Nest's shutdown hooks close the pool and stop an
 * embedded PostgreSQL.
 */
export async function shutdownGracefully(app: INestApplication, timeoutMs: number, logger: LoggerService): Promise<void> {
  app.get(ShutdownState).begin();
  const server = app.getHttpServer() as Server;
  const force = setTimeout(() => {
    logger.warn(`Shutdown timeout of ${timeoutMs} ms reached; closing remaining connections`, 'Shutdown');
    server.closeAllConnections();
  }, timeoutMs);
  force.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(force);
  }
}
