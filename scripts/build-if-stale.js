#!/usr/bin/env node
'use strict';

/*
 * `npm start`'s prestart: builds only when the build is missing or older than what it is built from, so a
 * restart starts at once (a fresh clone, or any change to a source, still builds first).
 *
 *   node scripts/build-if-stale.js        builds with `npm run build` when stale, else says it is up to date
 *
 * "Older" compares modification times: the older of the build's two entry points (dist/main.js and the web
 * console's console/dist/index.html, each written by every build, which empties its folder first) against every
 * file and folder under src/ and console/src/ (a deleted or renamed file changes its folder's time) and the files
 * the build reads besides (package.json, package-lock.json, tsconfig*.json, nest-cli.json and the console's own).
 * The console's API types are generated from the service's document (into console/.generated, not a source
 * folder), so a change under src/ rebuilds both.
 */
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const INPUT_FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
  'console/package.json',
  'console/index.html',
  'console/tsconfig.json',
  'console/vite.config.ts',
];
const INPUT_FOLDERS = ['src', 'console/src', 'console/scripts'];
const OUTPUTS = [join('dist', 'main.js'), join('console', 'dist', 'index.html')];

/** The newest modification time (ms) of `path` and everything under it. */
function newestUnder(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestUnder(join(path, entry)));
  return newest;
}

/** Why `root` needs a build, or null when both outputs are newer than every input. */
function staleReason(root) {
  // The console's output counts only where the checkout has the console (its package.json).
  const outputs = existsSync(join(root, 'console', 'package.json')) ? OUTPUTS : OUTPUTS.slice(0, 1);
  let built = Infinity;
  for (const output of outputs) {
    if (!existsSync(join(root, output))) return 'no build yet';
    built = Math.min(built, statSync(join(root, output)).mtimeMs);
  }
  const inputs = [...INPUT_FOLDERS, ...INPUT_FILES].map((path) => join(root, path)).filter((path) => existsSync(path));
  for (const input of inputs) if (newestUnder(input) > built) return `${input.slice(root.length + 1)} changed since the last build`;
  return null;
}

module.exports = { staleReason };

if (require.main === module) {
  const root = join(__dirname, '..');
  const reason = staleReason(root);
  if (reason === null) {
    process.stdout.write('Build is up to date with the sources: starting without building.\n');
  } else {
    process.stdout.write(`Building (${reason}).\n`);
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
}
