import { Injectable } from '@nestjs/common';

/** A component's state as a readiness check reports it; `message` is a fixed text, never driver or host output. */
export type ReportedCheck = {
  status: 'up' | 'down';
  latencyMs: number;
  message?: string;
};

/**
 * Components that readiness reports but that never make the service unready (an optional connection such as the
 * MQTT broker's): a component registers a function answering its current state, read on every probe.
 */
@Injectable()
export class ReportedChecks {
  private readonly checks = new Map<string, () => ReportedCheck>();

  register(name: string, check: () => ReportedCheck): void {
    this.checks.set(name, check);
  }

  snapshot(): Record<string, ReportedCheck> {
    return Object.fromEntries([...this.checks].map(([name, check]) => [name, check()]));
  }
}
