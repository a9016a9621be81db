#!/usr/bin/env node
'use strict';

/*
 * `npm start`'s prestart: builds only when the build is missing or older than what it is built from, so a
 * restart starts at once (a fresh clone, or any change to a source, still builds first).
 *
 *   node scripts/build-if-stale.js        builds with `npm run build` when stale, else says it is up to date
 *
 * "Older" compares modification times: the build's entry point (dist/main.js, written by every build, which
 * empties dist first) against every file and folder under src/ (a deleted or renamed file changes its folder's
 * time) and the files the build reads besides (package.json, package-lock.json, tsconfig*.json, nest-cli.json).
 */
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

/** The newest modification time (ms) of `path` and everything under it. */
function newestUnder(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestUnder(join(path, entry)));
  return newest;
}

/** Why `root` needs a build, or null when dist/main.js is newer than every input. */
function staleReason(root) {
  const output = join(root, 'dist', 'main.js');
  if (!existsSync(output)) return 'no build yet';
  const built = statSync(output).mtimeMs;
  const inputs = [join(root, 'src'), ...INPUT_FILES.map((file) => join(root, file))].filter((path) => existsSync(path));
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
