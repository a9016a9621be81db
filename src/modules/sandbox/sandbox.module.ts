import { Module } from '@nestjs/common';
import { getToken } from '@willsoto/nestjs-prometheus';
import type { Counter, Gauge, Histogram } from 'prom-client';
import { AppConfig } from '../../config/app-config';
import { sandboxLimitsFrom } from './sandbox-limits';
import { SANDBOX_HEAP_USED, SANDBOX_INVOCATION_DURATION, SANDBOX_INVOCATIONS_TOTAL, SANDBOX_ISOLATES, sandboxMetricProviders } from './sandbox-metrics';
import { ScriptSandbox } from './script-sandbox';

/** The script sandbox engine (no routes): inject ScriptSandbox to compile, gate and invoke custom block scripts. */
@Module({
  providers: [
    ...sandboxMetricProviders,
    {
      provide: ScriptSandbox,
      inject: [AppConfig, getToken(SANDBOX_INVOCATIONS_TOTAL), getToken(SANDBOX_INVOCATION_DURATION), getToken(SANDBOX_ISOLATES), getToken(SANDBOX_HEAP_USED)],
      useFactory: (config: AppConfig, invocations: Counter<string>, duration: Histogram<string>, isolates: Gauge<string>, heapUsed: Gauge<string>) =>
        new ScriptSandbox(sandboxLimitsFrom(config), { invocations, duration, isolates, heapUsed }),
    },
  ],
  exports: [ScriptSandbox],
})
export class SandboxModule {}
