/*
 * The sandbox module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { SCRIPT_CONTRACTS } from './domain/sandbox-contract';
export type { GateIssue, JsonObject, SampleInput, ScriptArtifact, ScriptContract } from './domain/sandbox-contract';
export { SandboxModule } from './sandbox.module';
export { ScriptSandbox } from './script-sandbox';
