/**
 * The flow engine's public API, the only file of this folder imported from outside it (a lint rule fails any
 * other): compile a stored flow version into a plan, execute a plan on one input (storage writes and e-mail
 * requests come back as data), and the types both speak in, the `flow-graph.v2` model among them.
 */
export * from './engine-types';
export { compilePlan, FlowPlanError, PlanCache, resolveParameterRefs } from './execution-plan';
export type { ExecutionPlan, PlanNode, PlanOutputField } from './execution-plan';
export { executePlan } from './execute-plan';
export { evaluateAssertions } from './assertions';
export type { Assertion, AssertionResult } from './assertions';
export { jsonEqual } from './message-path';
export { SandboxUnavailableError } from '../../sandbox';
export { FlowEngine, PLAN_CACHE_CAPACITY } from './flow-engine';
export type { FlowPlanSource } from './flow-engine';
export { FlowEngineModule } from './flow-engine.module';
export { storedUplinkInput, storedUplinkOf } from './stored-uplink';
export type { StoredUplink, StoredUplinkRow } from './stored-uplink';
