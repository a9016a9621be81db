#!/usr/bin/env node
/*
 * The console's API types come from the service's own OpenAPI document, never written by hand: this writes the
 * document of the built service (../dist, from `nest build`) and turns it into .generated/schema.d.ts with
 * openapi-typescript (re-exported by src/api/schema.ts). Both outputs are build products (git-ignored), so a contract change reaches the console's
 * typecheck in the next build, and `npm test` (which builds) fails where the console no longer fits the contract.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = dirname(fileURLToPath(import.meta.url));
const consoleRoot = join(here, '..');
const documentFile = join(consoleRoot, '.generated', 'openapi.json');
const typesFile = join(consoleRoot, '.generated', 'schema.d.ts');

mkdirSync(dirname(documentFile), { recursive: true });
execFileSync(process.execPath, [join(consoleRoot, '..', 'scripts', 'write-openapi.js'), documentFile], { stdio: 'inherit' });
const document = JSON.parse(readFileSync(documentFile, 'utf8'));
const ast = await openapiTS(document, { alphabetize: false });
writeFileSync(typesFile, `// Generated from the service's OpenAPI document by scripts/generate-api-types.mjs; do not edit.\n${astToString(ast)}`);
process.stdout.write(`API types written to ${typesFile}\n`);
