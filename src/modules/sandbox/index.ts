/*
 * The sandbox module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { SCRIPT_CONTRACTS } from './domain/sandbox-contract';
export type {
  GateIssue,
  InvocationOutcome,
  JsonObject,
  JsonValue,
  SampleInput,
  ScriptArtifact,
  ScriptContextData,
  ScriptContract,
  ScriptMessage,
} from './domain/sandbox-contract';
export { SandboxUnavailableError } from './domain/sandbox.errors';
export { SandboxModule } from './sandbox.module';
export { ScriptSandbox } from './script-sandbox';
