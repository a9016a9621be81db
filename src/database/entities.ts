import { join } from 'node:path';
import { getMetadataArgsStorage } from 'typeorm';
import { classesBelow } from './discover';

/**
 * Every TypeORM entity of the service: the `@Entity` classes of the `*.entity.ts` files of the modules and of
 * src/shared, found by their name, so a new module's entities need no edit here.
 */
export const ENTITIES = classesBelow(join(__dirname, '..'), /\.entity\.(ts|js)$/).filter((candidate) =>
  getMetadataArgsStorage().tables.some((table) => table.target === candidate),
);
