#!/usr/bin/env node
/*
 * Prints the gzip size of every emitted asset and fails the build when the JavaScript the entry page loads
 * (its module script and the chunks it preloads) exceeds the first-load budget.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 300 * 1024;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstLoad = new Set([...html.matchAll(/(?:src|href)="\/console\/assets\/([^"]+\.js)"/g)].map((match) => match[1]));
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
let firstLoadGzip = 0;
for (const name of readdirSync(join(dist, 'assets')).sort()) {
  const content = readFileSync(join(dist, 'assets', name));
  const gzip = gzipSync(content, { level: 9 }).length;
  if (firstLoad.has(name)) firstLoadGzip += gzip;
  process.stdout.write(`  assets/${name.padEnd(40)} ${kb(content.length).padStart(10)}  gzip ${kb(gzip).padStart(9)}${firstLoad.has(name) ? '  (first load)' : ''}\n`);
}
process.stdout.write(`Console first load: ${kb(firstLoadGzip)} of JavaScript gzip (budget ${kb(BUDGET_BYTES)})\n`);
if (firstLoadGzip > BUDGET_BYTES) {
  process.stderr.write('The console\'s first load is over its JavaScript budget: split a page out with React.lazy.\n');
  process.exit(1);
}
