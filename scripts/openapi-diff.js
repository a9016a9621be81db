#!/usr/bin/env node
'use strict';

/*
 * `node scripts/openapi-diff.js <before.json> <after.json>`: the differences between two OpenAPI documents
 * (as `npm run openapi` writes them), operation by operation (matched by method and path). operationIds and
 * the `**Access**` paragraph of a description are counted, not listed: the paragraph is written from each
 * route's access metadata. Everything else (paths, parameters, schemas, examples, error examples, the rest of
 * each description) is listed leaf by leaf.
 */

const { readFileSync } = require('node:fs');

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) {
  process.stderr.write('Usage: node scripts/openapi-diff.js <before.json> <after.json>\n');
  process.exit(2);
}
const before = JSON.parse(readFileSync(beforeFile, 'utf8'));
const after = JSON.parse(readFileSync(afterFile, 'utf8'));

const withoutAccess = (text) => (typeof text === 'string' ? text.split('\n\n').filter((part) => !part.startsWith('**Access**')).join('\n\n') : text);
const differences = [];
let renamed = 0;
let accessChanged = 0;

function compare(a, b, where, operation = false) {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (operation && key === 'operationId') {
        if (a[key] !== b[key]) renamed += 1;
      } else if (operation && key === 'description') {
        if (withoutAccess(a[key]) !== withoutAccess(b[key])) differences.push(`${where} description:\n  - ${withoutAccess(a[key])}\n  + ${withoutAccess(b[key])}`);
        else if (a[key] !== b[key]) accessChanged += 1;
      } else {
        compare(a[key], b[key], `${where}.${key}`);
      }
    }
    return;
  }
  differences.push(`${where}:\n  - ${JSON.stringify(a)}\n  + ${JSON.stringify(b)}`);
}

for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
  if (key !== 'paths') {
    compare(before[key], after[key], key);
    continue;
  }
  for (const path of new Set([...Object.keys(before.paths), ...Object.keys(after.paths)])) {
    const methods = new Set([...Object.keys(before.paths[path] ?? {}), ...Object.keys(after.paths[path] ?? {})]);
    for (const method of methods) compare(before.paths[path]?.[method], after.paths[path]?.[method], `${method.toUpperCase()} ${path}`, true);
  }
}

process.stdout.write(differences.map((line) => `${line}\n`).join(''));
process.stdout.write(`${differences.length} differences; ${renamed} operationIds renamed; ${accessChanged} access paragraphs changed (nothing else in their description)\n`);
