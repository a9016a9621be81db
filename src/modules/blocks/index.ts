/*
 * The blocks module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { BUILT_IN_BLOCKS, builtInBlock } from './domain/built-in-blocks';
export type { BuiltInBlockKey } from './domain/built-in-blocks';
// The commands a platform operator's tooling (the flow template catalog seeder) runs to publish global blocks.
export { CreateGlobalFlowBlockCommand } from './create-flow-block/create-flow-block.command';
export { CreateFlowBlockVersionCommand } from './create-flow-block-version/create-flow-block-version.command';
export { ReleaseFlowBlockVersionCommand } from './release-flow-block-version/release-flow-block-version.command';
