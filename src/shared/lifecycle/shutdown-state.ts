import { Injectable } from '@nestjs/common';

/** Flipped at the first shutdown signal so readiness answers 503 while in-flight requests drain. */
@Injectable()
export class ShutdownState {
  private shuttingDown = false;

  begin(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }
}

/** How long the decision of reportConnectionLoss waits for the stop to show. */
const CONNECTION_LOSS_GRACE_MS = 200;

/**
 * Logs a lost database connection: a warning, unless the service is stopping (`stopping()`) by then. A connection
 * ended while the service stops is part of the stop: a Ctrl-C in a terminal reaches an embedded PostgreSQL as well,
 * which ends its connections before the service closes them. The signal and the server's message race, so the
 * decision waits a moment.
 */
export function reportConnectionLoss(logger: { warn(message: string): void; debug(message: string): void }, message: string, stopping: () => boolean): void {
  setTimeout(() => {
    if (stopping()) logger.debug(message);
    else logger.warn(message);
  }, CONNECTION_LOSS_GRACE_MS).unref();
}
