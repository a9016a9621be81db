import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files below `dir` whose name matches `pattern`, in path order: compiled `.js` files when running from `dist`,
 * `.ts` sources under jest and the TypeORM CLI. Declarations, maps and specs never match.
 */
function filesBelow(dir: string, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesBelow(path, pattern));
    else if (pattern.test(entry.name) && !/\.d\.ts$|\.map$|\.spec\./.test(entry.name)) found.push(path);
  }
  return found;
}

/** The classes exported by the files below `dir` whose name matches `pattern`, in file path order. */
export function classesBelow(dir: string, pattern: RegExp): (new (...args: never[]) => unknown)[] {
  return filesBelow(dir, pattern).flatMap((file) =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    Object.values(require(file) as Record<string, unknown>).filter((value): value is new (...args: never[]) => unknown => typeof value === 'function'),
  );
}
