/*
 * `npm run bench:lists`: keyset pages stay flat with depth.
 * Seeds 1,000,000 audit events over 20 tenants (30 days) and 100,000 organization units (1,000 roots x 99
 * children) with generate_series into a throw-away database (DATABASE_URL's server, else an embedded PostgreSQL),
 * starts the built service on it, and measures the p50 over BENCH_RUNS (30) requests of page 1 and of a page
 * ~1,000 pages deep (its cursor found by walking) for the tenant audit list and the organization-unit list.
 * Goals: deep/first <= 1.5 and page-1 p50 < 20 ms. Prints EXPLAIN index usage. Never fails on a number.
 */
const { Client } = require('pg');
const { ADMIN, explainPlan, fail, p50: medianOf, startService, throwAwayDatabase } = require('./support');

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const DEPTH = Number(process.env.BENCH_DEPTH_PAGES ?? 1000);
const AUDIT_EVENTS = 1_000_000;
const TENANTS = 20;
const UNITS = 100_000;
const log = (line) => process.stdout.write(`${line}\n`);
const p50 = (fn) => medianOf(fn, RUNS);

async function seed(db) {
  const started = Date.now();
  await db.query(`INSERT INTO tenants (key, name) SELECT 'bench-' || i, 'Bench ' || i FROM generate_series(1, ${TENANTS}) i`);
  await db.query(`INSERT INTO action_kill_switches (tenant_id) SELECT tenant_id FROM tenants`);
  const { rows: tenants } = await db.query(`SELECT tenant_id, tenant_number FROM tenants ORDER BY tenant_number`);
  // 1,000,000 events, one every ~2.6 s over the last 30 days, round-robin over the tenants (plus platform events).
  await db.query(
    `INSERT INTO audit_log (tenant_id, event_type, actor_type, actor_id, action, entity_type, entity_id, outcome, occurred_at,
                            correlation_id, method, route, status_code)
     SELECT CASE WHEN i % 50 = 0 THEN NULL ELSE ($1::uuid[])[1 + i % ${TENANTS}] END,
            (ARRAY['device.assigned','device.updated','session.login_succeeded'])[1 + i % 3], 'user', md5(i::text), 'assign',
            'device', md5((i / 7)::text), 'success', now() - interval '1 minute' - i * interval '2592 milliseconds',
            'bench-' || i, 'POST', '/v1/devices/{deviceId}/assign', 200
       FROM generate_series(1, ${AUDIT_EVENTS}) i`,
    [tenants.map((row) => row.tenant_id)],
  );
  const first = tenants[0];
  await db.query(
    `INSERT INTO organization_units (tenant_id, depth, key, name, created_at)
     SELECT $1, 1, 'root-' || i, 'Root ' || i, now() - interval '2 days' + i * interval '1 millisecond' FROM generate_series(1, 1000) i`,
    [first.tenant_id],
  );
  await db.query(
    `INSERT INTO organization_units (tenant_id, parent_organization_unit_id, ancestor_ids, depth, key, name, created_at)
     SELECT $1, r.organization_unit_id, ARRAY[r.organization_unit_id], 2, 'unit-' || r.key || '-' || c, 'Unit ' || c,
            now() - interval '1 day' + (row_number() OVER ()) * interval '1 millisecond'
       FROM organization_units r CROSS JOIN generate_series(1, ${UNITS / 1000 - 1}) c
      WHERE r.tenant_id = $1`,
    [first.tenant_id],
  );
  await db.query('ANALYZE');
  log(`seeded ${AUDIT_EVENTS} audit events over ${TENANTS} tenants and ${UNITS} units in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return first;
}

function httpList(service, token, path) {
  return async (cursor) => {
    const res = await fetch(`${service.url}${path}${cursor ? `&cursor=${cursor}` : ''}`, { headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw Object.assign(new Error(`${path} answered ${res.status}: ${await res.text()}`), { status: res.status });
    return res.json();
  };
}

/** The cursor of page DEPTH + 1, found by walking (the same requests a client makes). */
async function deepCursor(page) {
  let cursor;
  for (let index = 0; index < DEPTH; index++) {
    const body = await page(cursor);
    if (!body.nextCursor) throw new Error(`the list ended after ${index + 1} pages`);
    cursor = body.nextCursor;
  }
  return cursor;
}

async function compare(name, page, cursor) {
  const first = await p50(() => page());
  const deep = await p50(() => page(cursor));
  const ratio = deep / first;
  log(`${name.padEnd(44)} page 1 p50 ${first.toFixed(2).padStart(7)} ms   page ${DEPTH + 1} p50 ${deep.toFixed(2).padStart(7)} ms   deep/first ${ratio.toFixed(2)}`);
  log(`${''.padEnd(44)} goals: deep/first <= 1.5 ${ratio <= 1.5 ? 'met' : 'NOT met'}, page 1 < 20 ms ${first < 20 ? 'met' : 'NOT met'}`);
}

async function explain(db, title, sql, params) {
  const { plan, indexes, seqScans, sorted, time } = await explainPlan(db, sql, params);
  log(`EXPLAIN ${title}: ${indexes.join(', ') || 'no index'}${seqScans.length ? ' + Seq Scan' : ''}; ${sorted ? 'with Sort' : 'no Sort'}; ${time}`);
  for (const line of plan.filter((l) => /Index Cond|Filter:|Rows Removed/.test(l))) log(`    ${line.trim()}`);
}

async function main() {
  const database = await throwAwayDatabase('lists');
  let service;
  const db = new Client({ connectionString: database.url });
  try {
    service = await startService(database.url); // migrates the database
    await db.connect();
    const tenant = await seed(db);
    const login = await fetch(`${service.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: ADMIN.username, password: ADMIN.password }),
    });
    const { accessToken } = await login.json();

    // An explicit 30-day window: ~49,000 events of the tenant, ~1,960 pages of 25.
    const to = new Date();
    const from = new Date(to.getTime() - 30 * 24 * 3600_000);
    const auditPath = `/v1/tenants/${tenant.tenant_number}/audit-logs?from=${from.toISOString()}&to=${to.toISOString()}&limit=25`;
    const audit = httpList(service, accessToken, auditPath);
    log(`runs per figure: ${RUNS}; deep page = page ${DEPTH + 1} (cursor found by walking ${DEPTH} pages)`);
    await compare(`GET ${'/v1/tenants/{n}/audit-logs?from&to&limit=25'}`, audit, await deepCursor(audit));

    // The "all visible units" query (`q=`), else the unfiltered list (top-level units only).
    let units = httpList(service, accessToken, `/v1/tenants/${tenant.tenant_number}/organization-units?q=&limit=25`);
    let probe = await units().catch((error) => error);
    if (probe instanceof Error) {
      log(`GET /v1/tenants/{n}/organization-units?q= failed: ${probe.message.slice(0, 300)}`);
      units = httpList(service, accessToken, `/v1/tenants/${tenant.tenant_number}/organization-units?limit=25`);
      probe = await units().catch((error) => error);
    }
    if (probe instanceof Error) {
      log(`organization-units API not usable (${probe.message.slice(0, 300)}): measuring its keyset SQL directly (count + page)`);
      const page = (after) => async () => {
        const where = after ? 'AND (u.created_at, u.organization_unit_id) > ($2::timestamptz, $3::uuid)' : '';
        const params = after ? [tenant.tenant_id, after.created_at, after.organization_unit_id] : [tenant.tenant_id];
        await db.query(`SELECT count(*) FROM organization_units u WHERE u.tenant_id = $1`, [tenant.tenant_id]);
        await db.query(`SELECT u.* FROM organization_units u WHERE u.tenant_id = $1 ${where} ORDER BY u.created_at, u.organization_unit_id LIMIT 26`, params);
      };
      const {
        rows: [after],
      } = await db.query(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at, organization_unit_id
           FROM organization_units WHERE tenant_id = $1 ORDER BY created_at, organization_unit_id OFFSET ${DEPTH * 25 - 1} LIMIT 1`,
        [tenant.tenant_id],
      );
      const first = await p50(page(null));
      const deep = await p50(page(after));
      log(`${'SQL units list (count + page of 25)'.padEnd(44)} page 1 p50 ${first.toFixed(2).padStart(7)} ms   page ${DEPTH + 1} p50 ${deep.toFixed(2).padStart(7)} ms   deep/first ${(deep / first).toFixed(2)}`);
    } else {
      await compare('GET /v1/tenants/{n}/organization-units?q=', (cursor) => units(cursor), await deepCursor(units));
    }

    const { rows: [deepRow] } = await db.query(
      `SELECT occurred_at, audit_log_id FROM audit_log WHERE tenant_id = $1 ORDER BY occurred_at DESC, audit_log_id DESC OFFSET ${DEPTH * 25} LIMIT 1`,
      [tenant.tenant_id],
    );
    await explain(
      db,
      'tenant audit, deep page',
      `SELECT * FROM audit_log a WHERE a.tenant_id = $1 AND (a.occurred_at, a.audit_log_id) < ($2, $3) AND a.occurred_at >= $4
        ORDER BY a.occurred_at DESC, a.audit_log_id DESC LIMIT 26`,
      [tenant.tenant_id, deepRow.occurred_at, deepRow.audit_log_id, from],
    );
    await explain(
      db,
      'global audit, page 1 (24 h)',
      `SELECT * FROM audit_log a WHERE a.occurred_at < statement_timestamp() AND a.occurred_at >= statement_timestamp() - interval '24 hours'
        ORDER BY a.occurred_at DESC, a.audit_log_id DESC LIMIT 26`,
      [],
    );
    await explain(
      db,
      'units, page 1',
      `SELECT * FROM organization_units u WHERE u.tenant_id = $1 ORDER BY u.created_at, u.organization_unit_id LIMIT 26`,
      [tenant.tenant_id],
    );
  } finally {
    await db.end().catch(() => undefined);
    await service?.stop();
    await database.drop();
  }
}

main().catch(fail('bench:lists'));
