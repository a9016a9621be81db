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
