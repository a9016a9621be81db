import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { ScriptSandbox } from '../../sandbox';
import { evaluateAssertions, type Assertion } from './assertions';
import type { ExecuteOptions, ExecutionResult, FieldContractEntry, FlowInput, FlowVersionForPlan, JsonObject, ResolvedBlockVersion } from './engine-types';
import { executePlan } from './execute-plan';
import { compilePlan, PlanCache, type ExecutionPlan } from './execution-plan';

/** What the caller loads for a plan (only on a cache miss): the device type's fields and the custom block versions. */
export interface FlowPlanSource {
  fields: Readonly<Record<string, FieldContractEntry>>;
  resolveBlock: (flowBlockVersionId: string) => ResolvedBlockVersion | undefined;
}

/** Plans kept in memory; a plan is a few KiB. */
export const PLAN_CACHE_CAPACITY = 500;

/**
 * The flow execution engine as a provider: compiled plans cached by flow version id, executions with the
 * configured budget (FLOW_EXECUTION_TIMEOUT_MS) through the shared script sandbox. No HTTP, no database.
 */
@Injectable()
export class FlowEngine {
  private readonly cache = new PlanCache(PLAN_CACHE_CAPACITY);

  constructor(
    private readonly sandbox: ScriptSandbox,
    private readonly config: AppConfig,
  ) {}

  /**
   * The plan of `version`, compiled on first use. `load` is called only on a miss. `tag` names the field
   * contract / block versions the caller loads (for example the newest field `updatedAt`): a plan compiled
   * under another tag is compiled again. Throws FlowPlanError for a graph that cannot run (cycle, bad edge).
   */
  plan(version: FlowVersionForPlan, load: () => FlowPlanSource | Promise<FlowPlanSource>, tag?: string): Promise<ExecutionPlan> {
    return this.cache.get(
      version,
      async () => ({ ...(await load()), sandbox: this.sandbox }),
      tag,
    );
  }

  /** A plan compiled now and not cached. */
  compile(version: FlowVersionForPlan, source: FlowPlanSource): ExecutionPlan {
    return compilePlan(version, { ...source, sandbox: this.sandbox });
  }

  /** Runs `plan` on `input`; `budgetMs` defaults to FLOW_EXECUTION_TIMEOUT_MS. Throws SandboxUnavailableError on a sandbox outage. */
  execute(plan: ExecutionPlan, input: FlowInput, parameters: JsonObject, options: Omit<ExecuteOptions, 'budgetMs'> & { budgetMs?: number }): Promise<ExecutionResult> {
    return executePlan(plan, input, parameters, { ...options, budgetMs: options.budgetMs ?? this.config.flowExecutionTimeoutMs });
  }

  evaluateAssertions(result: ExecutionResult, assertions: readonly Assertion[]): ReturnType<typeof evaluateAssertions> {
    return evaluateAssertions(result, assertions);
  }

  /** Forgets a cached plan (not needed for immutable versions; for tests and tools). */
  forget(flowVersionId: string): void {
    this.cache.delete(flowVersionId);
  }
}
