/*
 * `npm run bench:import`: the legacy snapshot import at its limits, 1,000 device types and 20,000 devices read from a
 * local legacy source (node:http, BENCH_IMPORT_TENANTS source tenants, pages of BENCH_IMPORT_PAGE records) into an
 * empty tenant of the built service, on a throw-away database (DATABASE_URL's server, else an embedded PostgreSQL).
 * Prints, for a dry run, the import and a second import (everything `existing`): the request's total time, records
 * per second, and the service process's resident memory before and its peak (VmHWM) after each step.
 * The service runs with NODE_ENV=test, the one mode that lets it call a plain-http loopback source.
 * Prints figures; never fails on a number.
 */
const { randomBytes } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { createServer } = require('node:http');
const { Client } = require('pg');
const { ADMIN, fail, startService, throwAwayDatabase } = require('./support');

const TYPES = Number(process.env.BENCH_IMPORT_TYPES ?? 1000);
const DEVICES = Number(process.env.BENCH_IMPORT_DEVICES ?? 20_000);
const TENANTS = Number(process.env.BENCH_IMPORT_TENANTS ?? 10);
const PAGE = Number(process.env.BENCH_IMPORT_PAGE ?? 500);
const log = (line) => process.stdout.write(`${line}\n`);

/** The legacy system: TENANTS tenants sharing the device types and devices evenly, 3 metadata entries a device. */
function legacySnapshot() {
  const tenants = Array.from({ length: TENANTS }, (_, t) => ({ id: `legacy-${t}`, name: `Legacy ${t}`, deviceTypes: [], devices: [] }));
  for (let i = 0; i < TYPES; i++) tenants[i % TENANTS].deviceTypes.push({ id: `type-${i}`, code: `Sensor-${i}`, name: `Sensor model ${i}`, description: 'Imported for the benchmark' });
  for (let i = 0; i < DEVICES; i++) {
    const tenant = tenants[i % TENANTS];
    const type = tenant.deviceTypes[i % tenant.deviceTypes.length];
    tenant.devices.push({
      id: `device-${i}`,
      devEui: `70B3D57E${i.toString(16).toUpperCase().padStart(8, '0')}`,
      name: `Meter ${i}`,
      deviceTypeId: type.id,
      metadata: { site: `site-${i % 97}`, floor: String(i % 12), installer: 'acme' },
    });
  }
  return tenants;
}

function startSource(tenants, credentials) {
  const token = randomBytes(16).toString('hex');
  const page = (items, url) => {
    const offset = Number(url.searchParams.get('cursor') ?? 0);
    return { items: items.slice(offset, offset + PAGE), next: offset + PAGE < items.length ? String(offset + PAGE) : null };
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url, 'http://source');
      const send = (status, value) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && url.pathname === '/api/auth/login') {
        const { username, password } = JSON.parse(body);
        return username === credentials.username && password === credentials.password ? send(200, { accessToken: token }) : send(401, {});
      }
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, {});
      if (url.pathname === '/api/tenants') return send(200, page(tenants.map(({ id, name }) => ({ id, name })), url));
      const match = /^\/api\/tenants\/([^/]+)\/(device-types|devices)$/.exec(url.pathname);
      const tenant = match && tenants.find((candidate) => candidate.id === decodeURIComponent(match[1]));
      if (!tenant) return send(404, {});
      return send(200, page(match[2] === 'devices' ? tenant.devices : tenant.deviceTypes, url));
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ url: `http://127.0.0.1:${server.address().port}/api`, close: () => server.close() })));
}

/** Resident and peak resident memory of a process, MiB (Linux /proc). */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function main() {
  const database = await throwAwayDatabase('import');
  const credentials = { username: 'bench-legacy-user', password: randomBytes(12).toString('hex') };
  const tenants = legacySnapshot();
  const source = await startSource(tenants, credentials);
  const service = await startService(database.url, { env: { NODE_ENV: 'test', LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK: 'true' } });
  try {
    const json = { 'Content-Type': 'application/json' };
    const login = await fetch(`${service.url}/v1/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ identifier: ADMIN.username, password: ADMIN.password }) });
    const auth = { ...json, Authorization: `Bearer ${(await login.json()).accessToken}` };
    const created = await fetch(`${service.url}/v1/tenants`, { method: 'POST', headers: auth, body: JSON.stringify({ key: 'import-bench', name: 'Import bench' }) });
    const { tenantNumber } = await created.json();
    const records = TYPES + DEVICES;
    log(`Legacy snapshot import: ${TYPES} device types and ${DEVICES} devices from ${TENANTS} source tenants, pages of ${PAGE}`);
    for (const [label, query] of [
      ['dry run', '?dryRun=true'],
      ['import', ''],
      ['again (all existing)', ''],
    ]) {
      const before = memoryOf(service.pid);
      const started = process.hrtime.bigint();
      const res = await fetch(`${service.url}/v1/tenants/${tenantNumber}/imports/legacy-snapshot${query}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ baseUrl: source.url, ...credentials }),
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const body = await res.json();
      const after = memoryOf(service.pid);
      if (res.status !== 200) {
        log(`  ${label}: HTTP ${res.status} ${JSON.stringify(body)}`);
        continue;
      }
      log(
        `  ${label.padEnd(22)} ${seconds.toFixed(2).padStart(6)} s  ${Math.round(records / seconds).toString().padStart(6)} records/s  ` +
          `types ${JSON.stringify(body.deviceTypes)} devices ${JSON.stringify(body.devices)} issues ${body.issues.length}  ` +
          `service RSS ${before.rss.toFixed(0)} MiB before, peak ${after.peak.toFixed(0)} MiB`,
      );
    }
    const db = new Client({ connectionString: database.url });
    await db.connect();
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM audit_log WHERE actor_type = 'import'`);
    await db.end();
    log(`  audit rows written by the imports: ${rows[0].n}`);
  } finally {
    await service.stop();
    source.close();
    await database.drop();
  }
}

main().catch(fail('bench:import'));
