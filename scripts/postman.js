#!/usr/bin/env node
'use strict';

/*
 * `npm run postman`: generates a Postman collection (v2.1) from the OpenAPI document.
 *
 *   node scripts/postman.js [--openapi <openapi.json>] [--out <collection.json>]
 *
 * Without --openapi the document is written first by `scripts/write-openapi.js` from the built `dist/` (no database
 * needed; `npm run postman` builds before). The default output is
 * `postman/generated/uplink-api.postman_collection.json` (git-ignored: regenerate, never edit by hand).
 *
 * On top of the plain `openapi-to-postmanv2` conversion the collection is made usable right away, with the same
 * environment file as the curated collections (`postman/uplink.postman_environment.json`):
 * - requests are named `METHOD /path` (operations carry no summaries) and grouped in folders by OpenAPI tag;
 * - `{{baseUrl}}` defaults to http://localhost:3000; bearer auth uses `{{accessToken}}`, public operations none;
 * - the login request sends `{{adminUsername}}` / `{{adminPassword}}` and stores the token in `accessToken`;
 * - every path parameter refers to the collection variable of the same name (`{{tenantNumber}}`, `{{userId}}`…).
 * Item ids are left out, so regenerating from an unchanged document gives an identical file.
 *
 * Without arguments it also writes the curated "First uplink" collection, postman/first-uplink.postman_collection.json,
 * from docs/walkthrough.md (scripts/postman-walkthrough.js).
 */

const { execFileSync } = require('node:child_process');
const { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join, relative, resolve } = require('node:path');
const { walkthroughCollection } = require('./postman-walkthrough');

const ROOT = resolve(__dirname, '..');
const DEFAULT_OUT = join(ROOT, 'postman', 'generated', 'uplink-api.postman_collection.json');
const WALKTHROUGH_OUT = join(ROOT, 'postman', 'first-uplink.postman_collection.json');
const DEFAULT_BASE_URL = 'http://localhost:3000';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function parseArgs(argv) {
  const args = { openapi: undefined, out: DEFAULT_OUT };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = argv[i + 1];
    if ((arg === '--openapi' || arg === '--out') && value) {
      args[arg.slice(2)] = resolve(value);
      i += 1;
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write('Usage: node scripts/postman.js [--openapi <openapi.json>] [--out <collection.json>]\n');
      process.exit(0);
    } else {
      throw new Error(`unknown argument ${arg} (usage: --openapi <file> --out <file>)`);
    }
  }
  return args;
}

/** Writes the OpenAPI document with the built service (no database) and reads it back. */
function writeOpenApi() {
  const script = join(ROOT, 'scripts', 'write-openapi.js');
  const dir = mkdtempSync(join(tmpdir(), 'uplink-openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    const env = { ...process.env };
    delete env.DATABASE_URL;
    try {
      execFileSync(process.execPath, [script, file], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      throw new Error(`could not write the OpenAPI document with ${relative(ROOT, script)}: run \`npx nest build\` first`);
    }
    return JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Name each request `METHOD /path` (stable and searchable); the operation's summary and description stay in its description. */
function withRequestNames(document) {
  const copy = JSON.parse(JSON.stringify(document));
  for (const [path, item] of Object.entries(copy.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      operation.description = [operation.summary, operation.description].filter(Boolean).join('\n\n');
      operation.summary = `${method.toUpperCase()} ${path}`;
    }
  }
  return copy;
}

/** A seeded generator, so the faked example bodies (json-schema-faker uses Math.random) are the same every run. */
function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function convert(document) {
  const random = Math.random;
  // Seeded before the converter loads too: json-schema-faker keeps the Math.random it sees then.
  Math.random = seededRandom(20251123);
  return new Promise((done, fail) => {
    require('openapi-to-postmanv2').convert(
      { type: 'json', data: document },
      { folderStrategy: 'Tags', requestNameSource: 'Fallback', parametersResolution: 'Example', enableOptionalParameters: false, indentCharacter: ' ' },
      (error, result) => {
        if (error) return fail(error);
        if (!result || !result.result) return fail(new Error(`conversion failed: ${result ? result.reason : 'no result'}`));
        const collection = result.output.find((output) => output.type === 'collection');
        return collection ? done(collection.data) : fail(new Error('conversion produced no collection'));
      },
    );
  }).finally(() => {
    Math.random = random;
  });
}

function* requests(items) {
  for (const item of items ?? []) {
    if (item.item) yield* requests(item.item);
    if (item.request) yield item;
  }
}

function stripIds(items) {
  for (const item of items ?? []) {
    delete item.id;
    for (const response of item.response ?? []) delete response.id;
    stripIds(item.item);
  }
}

const LOGIN_TESTS = [
  "pm.test('status is 200', () => pm.response.to.have.status(200));",
  'const body = pm.response.json();',
  "pm.test('accessToken received', () => pm.expect(body.accessToken).to.be.a('string').and.not.empty);",
  "pm.collectionVariables.set('accessToken', body.accessToken);",
];

/** Names of the cookies the document's `apiKey` schemes live in (`in: cookie`). */
function cookieNames(document) {
  const schemes = Object.values(document.components?.securitySchemes ?? {});
  return new Set(schemes.filter((scheme) => scheme.type === 'apiKey' && scheme.in === 'cookie').map((scheme) => scheme.name));
}

function cookieAuth(auth, cookies) {
  const key = (auth.apikey ?? []).find((entry) => entry.key === 'key');
  return Boolean(key && cookies.has(key.value));
}

function adapt(collection, document) {
  const cookies = cookieNames(document);
  const pathVariables = new Set();
  for (const item of requests(collection.item)) {
    const { request } = item;
    for (const variable of request.url?.variable ?? []) {
      variable.value = `{{${variable.key}}}`;
      pathVariables.add(variable.key);
    }
    if (request.auth && request.auth.type === 'bearer') {
      request.auth.bearer = [{ key: 'token', value: '{{accessToken}}', type: 'string' }];
    } else if (!request.auth || (request.auth.type === 'apikey' && cookieAuth(request.auth, cookies))) {
      // Public, or the refresh cookie (which the converter would send as a header; Postman's cookie jar sends it
      // by itself after the login): don't inherit the collection's bearer auth either.
      request.auth = { type: 'noauth' };
    }
    const path = (request.url?.path ?? []).join('/');
    if (request.method === 'POST' && path === 'v1/auth/login') {
      request.body = { mode: 'raw', options: { raw: { language: 'json' } } };
      request.body.raw = JSON.stringify({ identifier: '{{adminUsername}}', password: '{{adminPassword}}' }, null, 2);
      item.event = [...(item.event ?? []), { listen: 'test', script: { type: 'text/javascript', exec: LOGIN_TESTS } }];
    }
  }
  stripIds(collection.item);
  collection.info = {
    ...collection.info,
    _postman_id: 'c0a8f5e2-5b1e-4d8e-9a55-9f2e6b1d7c41', // fixed, like the rest: same document, same file
    name: `${collection.info.name} (generated)`,
    description: {
      content:
        `Generated by \`npm run postman\` from the OpenAPI ${document.openapi} document of Uplink ${document.info.version}; ` +
        'do not edit, regenerate. Send "POST /v1/auth/login" first (it stores accessToken). Path parameters use the ' +
        'collection variables of the same name.',
      type: 'text/plain',
    },
  };
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{accessToken}}', type: 'string' }] };
  collection.variable = [
    { key: 'baseUrl', value: DEFAULT_BASE_URL, type: 'string' },
    { key: 'accessToken', value: '', type: 'string' },
    ...[...pathVariables].sort().map((key) => ({ key, value: '', type: 'string' })),
  ];
  return collection;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const document = args.openapi ? JSON.parse(readFileSync(args.openapi, 'utf8')) : writeOpenApi();
  const collection = adapt(await convert(withRequestNames(document)), document);
  mkdirSync(dirname(args.out), { recursive: true });
  // Faked date-times count back from now: pin them, so an unchanged document gives an identical file.
  const text = JSON.stringify(collection, null, 2).replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '2025-01-01T00:00:00.000Z');
  writeFileSync(args.out, `${text}\n`);
  const count = [...requests(collection.item)].length;
  process.stdout.write(`Postman collection with ${count} requests written to ${relative(process.cwd(), args.out) || args.out}\n`);
  if (!args.openapi && args.out === DEFAULT_OUT) {
    // The curated "First uplink" collection follows docs/walkthrough.md, request for request.
    const walkthrough = walkthroughCollection(readFileSync(join(ROOT, 'docs', 'walkthrough.md'), 'utf8'));
    writeFileSync(WALKTHROUGH_OUT, `${JSON.stringify(walkthrough, null, 2)}\n`);
    process.stdout.write(`"${walkthrough.info.name}" collection written to ${relative(process.cwd(), WALKTHROUGH_OUT)}\n`);
  }
}

main().catch((error) => {
  process.stderr.write(`postman: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
