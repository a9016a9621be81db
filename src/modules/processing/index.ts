/*
 * The processing module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { readFlowExecutionOutputs } from './persistence/flow-execution-outputs.reader';
export type { FlowExecutionOutputs } from './persistence/flow-execution-outputs.reader';
