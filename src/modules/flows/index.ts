/*
 * The flows module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { ActionRequestResponse, ExecutionErrorResponse, NodeTraceResponse } from './dto/execution-result.response.dto';
export { FlowsModule } from './flows.module';
export { FlowVersionStore } from './persistence/flow-version.store';
export { FlowEntity } from './persistence/flow.entity';
export { FlowRepository } from './persistence/flow.repository';
export { FlowVersionPlanner } from './domain/flow-version-planner';
export { resolveParameters } from './domain/parameter-resolution';
export { DebugCaptureStore } from './persistence/debug-capture.store';
export type { OverrideLevel } from './persistence/flow-parameter-override.entity';
export { flowVersionNotFound } from './persistence/flow-version.store';
export { FlowValidator, compileFailure, requiredFieldsOf, versionChecksum } from './domain/flow-validator';
export type { RequiredField, TemplateValidationReport } from './domain/flow-validator';
export { normalizeParameters, parameterSaveViolations, templateGraphSaveViolations, graphSaveViolations } from './domain/graph/flow-graph';
export type { FlowGraph, ParameterDeclaration } from './domain/graph/flow-graph';
export { FlowVersionResponse, SourceTemplateResponse } from './dto/flow-version.response.dto';
export { ValidationIssueResponse } from './dto/validation-report.response.dto';
export type { ResolvedFlow } from './persistence/flow.repository';
