import { classesBelow } from '../discover';

/**
 * Every migration, oldest first: the classes of this folder's `<timestamp>-<name>.ts` files in file name order, so a
 * new migration is a new file and nothing else (`npm run migration:generate` writes one).
 */
export const MIGRATIONS = classesBelow(__dirname, /^\d{13}-[\w-]+\.(ts|js)$/);
