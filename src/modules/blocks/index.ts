/*
 * The blocks module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { BUILT_IN_BLOCKS, builtInBlock } from './domain/built-in-blocks';
export type { BuiltInBlockKey } from './domain/built-in-blocks';
