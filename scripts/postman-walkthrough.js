'use strict';

/*
 * The "First uplink" Postman collection, generated from docs/walkthrough.md (`npm run postman` writes it to
 * postman/first-uplink.postman_collection.json; regenerate, never edit by hand). The page's `http` blocks, a request
 * followed by its answer, become the requests, in order: a custom codec block, a flow, its release and activation,
 * an ingestion credential, an uplink through the ingestion endpoint and the current values it produced.
 *
 * - `{{name}}` placeholders of the page are Postman variables already; each answer's `...Id`, `tenantNumber`,
 *   `accessToken` and `token` properties and its `ETag` (`etag`) are stored as collection variables.
 * - Every request tests its answer: the status of the answer block and every property it shows (`"…"`: any value).
 *   A GET whose answer does not match yet is sent again (up to 40 times, 250 ms apart): processing runs in the
 *   background.
 * - The admin's credentials come from the environment (`adminUsername`, `adminPassword`), and the tenant key and the
 *   devEui get a fresh suffix per run, so the collection runs again and again against one database.
 */

const ANY = '…';

/** The page's values a run replaces, so that it can run again: [text on the page, Postman expression]. */
const PER_RUN = [
  ['"identifier": "admin"', '"identifier": "{{adminUsername}}"'],
  ['"password": "my-own-admin-password"', '"password": "{{adminPassword}}"'],
  ['"acme-water"', '"{{tenantKey}}"'],
  ['A84041000181C4B1', '{{devEui}}'],
];

/** The `http` blocks of the page, each with the `##` heading above it. */
function httpBlocks(markdown) {
  const blocks = [];
  let heading = '';
  let block;
  for (const line of markdown.split('\n')) {
    if (block !== undefined) {
      if (line === '```') {
        blocks.push({ heading, text: block.join('\n') });
        block = undefined;
      } else block.push(line);
    } else if (line === '```http') block = [];
    else if (line.startsWith('## ')) heading = line.slice(3).trim();
  }
  return blocks;
}

/** Head lines (request or status line, headers) and the body after the first blank line. */
function split(text) {
  const blank = text.indexOf('\n\n');
  const head = (blank < 0 ? text : text.slice(0, blank)).split('\n');
  const body = blank < 0 ? '' : text.slice(blank + 2).trim();
  return { head, body: body || undefined };
}

/**
 * The requests of the page: `{ heading, method, path, headers, body?, status, expected?, source }`, where `expected`
 * is the answer block's JSON text. Throws when a request block is not followed by its answer block.
 */
function stepsOf(markdown) {
  const blocks = httpBlocks(markdown);
  const steps = [];
  for (let index = 0; index < blocks.length; index += 2) {
    const request = split(blocks[index].text);
    const answer = split(blocks[index + 1]?.text ?? '');
    const [method, path] = request.head[0].split(' ');
    const status = /^HTTP\/1\.1 (\d{3})\b/.exec(answer.head[0] ?? '')?.[1];
    if (!/^(GET|POST|PATCH|PUT|DELETE)$/.test(method ?? '') || !path || !status) {
      throw new Error(`walkthrough: expected a request block followed by its answer block, got:\n${blocks[index].text}\n${blocks[index + 1]?.text ?? ''}`);
    }
    const headers = request.head.slice(1).map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    });
    steps.push({
      heading: blocks[index].heading,
      method,
      path,
      headers,
      body: request.body,
      status: Number(status),
      expected: answer.body,
      source: blocks[index].text,
    });
  }
  return steps;
}

const perRun = (text) => PER_RUN.reduce((result, [from, to]) => result.split(from).join(to), text);

/** The test script of one request: status, the properties shown, the variables it stores, the retry of a GET. */
function testScript(step) {
  return [
    `const expectedText = ${JSON.stringify(step.expected === undefined ? '' : perRun(step.expected))};`,
    `const ANY = ${JSON.stringify(ANY)};`,
    '/** Where `actual` differs from the partial `expected` ("…" is any value), or null. */',
    'function mismatch(expected, actual, path) {',
    '  if (expected === ANY) return actual === undefined || actual === null ? path + ": missing" : null;',
    "  if (Array.isArray(expected)) {",
    "    if (!Array.isArray(actual) || actual.length !== expected.length) return path + ': expected ' + expected.length + ' items';",
    '    for (let i = 0; i < expected.length; i += 1) { const m = mismatch(expected[i], actual[i], path + "[" + i + "]"); if (m) return m; }',
    '    return null;',
    '  }',
    "  if (expected && typeof expected === 'object') {",
    "    if (!actual || typeof actual !== 'object') return path + ': expected an object';",
    '    for (const key of Object.keys(expected)) { const m = mismatch(expected[key], actual[key], path + "." + key); if (m) return m; }',
    '    return null;',
    '  }',
    '  return expected === actual ? null : path + ": expected " + JSON.stringify(expected) + ", got " + JSON.stringify(actual);',
    '}',
    'let body = null;',
    'try { body = pm.response.text() ? pm.response.json() : null; } catch (e) { body = null; }',
    `const statusOk = pm.response.code === ${step.status};`,
    "const expected = expectedText ? JSON.parse(pm.variables.replaceIn(expectedText)) : undefined;",
    "const problem = expected === undefined ? null : mismatch(expected, body, 'body');",
    "const attempts = Number(pm.collectionVariables.get('attempts') || 0);",
    `if (${step.method === 'GET'} && (!statusOk || problem) && attempts < 40) {`,
    "  // Processing runs in the background: ask again shortly.",
    "  pm.collectionVariables.set('attempts', attempts + 1);",
    '  pm.execution.setNextRequest(pm.info.requestName);',
    '} else {',
    "  pm.collectionVariables.set('attempts', 0);",
    `  pm.test('status is ${step.status}', () => pm.expect(pm.response.code, pm.response.text().slice(0, 500)).to.equal(${step.status}));`,
    "  if (expected !== undefined) pm.test('the answer shows what the walkthrough shows', () => pm.expect(problem, problem || '').to.equal(null));",
    "  for (const [key, value] of Object.entries(body && typeof body === 'object' ? body : {})) {",
    "    if ((/Id$/.test(key) || ['tenantNumber', 'accessToken', 'token'].includes(key)) && (typeof value === 'string' || typeof value === 'number')) {",
    '      pm.collectionVariables.set(key, String(value));',
    '    }',
    '  }',
    "  const etag = pm.response.headers.get('ETag');",
    "  if (etag) pm.collectionVariables.set('etag', etag);",
    '}',
  ];
}

/** The first request also picks the run's fresh tenant key and devEui. */
const FRESH_VALUES = [
  "const suffix = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);",
  "pm.collectionVariables.set('tenantKey', 'acme-water-' + suffix);",
  "pm.collectionVariables.set('devEui', Array.from({ length: 16 }, () => '0123456789ABCDEF'[Math.floor(Math.random() * 16)]).join(''));",
];
/** A GET sent again waits a little first. */
const RETRY_DELAY = ["if (Number(pm.collectionVariables.get('attempts') || 0) > 0) setTimeout(() => undefined, 250);"];

/** The Postman v2.1 collection of the page. */
function walkthroughCollection(markdown) {
  const steps = stepsOf(markdown);
  const folders = [];
  for (const [index, step] of steps.entries()) {
    let folder = folders.find((candidate) => candidate.name === step.heading);
    if (!folder) folders.push((folder = { name: step.heading, item: [] }));
    const path = step.path.split('?')[0];
    const query = step.path.includes('?') ? step.path.slice(step.path.indexOf('?') + 1) : '';
    const prerequest = [...(index === 0 ? FRESH_VALUES : []), ...(step.method === 'GET' ? RETRY_DELAY : [])];
    folder.item.push({
      name: `${step.method} ${step.path}${folder.item.some((item) => item.name.startsWith(`${step.method} ${step.path}`)) ? ` (${folder.item.length + 1})` : ''}`,
      event: [
        ...(prerequest.length ? [{ listen: 'prerequest', script: { type: 'text/javascript', exec: prerequest } }] : []),
        { listen: 'test', script: { type: 'text/javascript', exec: testScript(step) } },
      ],
      request: {
        method: step.method,
        header: step.headers.map(([key, value]) => ({ key, value })),
        url: {
          raw: `{{baseUrl}}${step.path}`,
          host: ['{{baseUrl}}'],
          path: path.split('/').filter(Boolean),
          ...(query ? { query: query.split('&').map((pair) => ({ key: pair.split('=')[0], value: pair.split('=').slice(1).join('=') })) } : {}),
        },
        ...(step.body === undefined ? {} : { body: { mode: 'raw', raw: perRun(step.body), options: { raw: { language: 'json' } } } }),
        auth: { type: 'noauth' },
      },
    });
  }
  return {
    info: {
      _postman_id: '5b0f7d1e-8a43-4c2b-9e61-2f4d8c7a9b30',
      name: 'Uplink: First uplink',
      description:
        'Generated from docs/walkthrough.md by `npm run postman`: do not edit, regenerate. From nothing to a first processed ' +
        'uplink: sign in, a tenant, a device type with its fields, a device, a custom codec block (created, versioned, released), ' +
        'the flow graph, release and activation, an ingestion credential, an uplink through POST /v1/ingestion/http and the ' +
        'current values it produced. Use with postman/uplink.postman_environment.json (baseUrl, adminUsername, adminPassword; ' +
        'the admin must have no pending password change). Each run uses a fresh tenant key and devEui.',
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    },
    item: folders,
    variable: [
      { key: 'baseUrl', value: 'http://localhost:3000', type: 'string' },
      { key: 'attempts', value: '0', type: 'string' },
    ],
  };
}

module.exports = { stepsOf, walkthroughCollection, PER_RUN };
