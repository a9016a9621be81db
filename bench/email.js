/*
 * `npm run bench:email`: e-mail delivery on a throw-away database (DATABASE_URL's server, else an embedded
 * PostgreSQL), with a real SMTP server in this process (smtp-server, accepting everything).
 *
 * 1. Added CPU of a live execution with one `email-action` node: two device types with the same flow (decode a
 *    uint16, scale, both outputs), one with an `email-action` node whose template has one address binding.
 *    BENCH_MESSAGES (3000) uplinks of each are posted to an ingest-only service while one processing service (jobs
 *    off, so only the execution's own work counts: the request row and its job) drains them; BENCH_ROUNDS (2)
 *    alternating rounds per side. Prints the processing service's CPU (and PostgreSQL's) per 1,000 executions for
 *    each side and the ratio (goal: at most 1.3x).
 * 2. Delivery throughput: BENCH_EMAILS (10000) deliveries queued at once (one transaction with their send jobs) for
 *    one service process and for two on the same database (jobs on, processing off, SMTP pooling on): deliveries/s
 *    from queueing to the last acceptance, and the delivery lag (queued -> sent) p50/p99.
 * BENCH_PARTS=cpu or BENCH_PARTS=throughput runs one part only. Prints figures; never fails on a number.
 */
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { Client } = require('pg');
const { SMTPServer } = require('smtp-server');
const { ADMIN, cpuSeconds, fail, postmasterOf, startService, throwAwayDatabase } = require('./support');

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const EMAILS = Number(process.env.BENCH_EMAILS ?? 10000);
const PARTS = (process.env.BENCH_PARTS ?? 'cpu,throughput').split(',');
const DEVICES = 200;
const CONNECTIONS = 20;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const devEuiOf = (type, i) => `${type === 'with' ? 'A' : 'B'}${String(i).padStart(15, '0')}`;

async function startSink() {
  const sink = { accepted: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('end', () => {
        sink.accepted += 1;
        callback();
      });
      stream.resume();
    },
  });
  server.on('error', () => undefined);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `smtp://127.0.0.1:${server.server.address().port}`;
  sink.close = () => new Promise((resolve) => server.close(resolve));
  return sink;
}

async function apiOf(url) {
  const call = async (method, path, body, headers = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(call.token ? { Authorization: `Bearer ${call.token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return { body: text ? JSON.parse(text) : null, etag: res.headers.get('etag') };
  };
  call.token = (await call('POST', '/v1/auth/login', { identifier: ADMIN.username, password: ADMIN.password })).body.accessToken;
  return call;
}

/** Tenant, template (active version, one address binding), and per side a device type, its devices and its flow. */
async function seed(db, api) {
  const {
    rows: [tenant],
  } = await db.query(`INSERT INTO tenants (key, name) VALUES ('bench-mail', 'Bench Mail') RETURNING tenant_id, tenant_number`);
  await db.query(`INSERT INTO action_kill_switches (tenant_id) VALUES ($1)`, [tenant.tenant_id]);
  const {
    rows: [template],
  } = await db.query(`INSERT INTO email_templates (tenant_id, key, name) VALUES ($1, 'alarm', 'Alarm') RETURNING email_template_id`, [tenant.tenant_id]);
  const {
    rows: [version],
  } = await db.query(
    `INSERT INTO email_template_versions (email_template_id, tenant_id, version_number, status, subject, body_text, body_html, released_at)
     VALUES ($1, $2, 1, 'released', 'Alarm at {{device.name}}', 'Level {{values.level}} at {{device.name}}', '<p>Level {{values.level}}</p>', clock_timestamp())
     RETURNING email_template_version_id`,
    [template.email_template_id, tenant.tenant_id],
  );
  await db.query(`UPDATE email_templates SET active_version_id = $2 WHERE email_template_id = $1`, [template.email_template_id, version.email_template_version_id]);
  await db.query(`INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email) VALUES ($1, $2, 'email', 'ops@example.com')`, [
    tenant.tenant_id,
    template.email_template_id,
  ]);
  const types = {};
  for (const side of ['without', 'with']) {
    const {
      rows: [type],
    } = await db.query(`INSERT INTO device_types (tenant_id, key, name) VALUES ($1, $2, $2) RETURNING device_type_id`, [tenant.tenant_id, `level-${side}`]);
    await db.query(
      `INSERT INTO device_field_definitions (tenant_id, device_type_id, key, name, schema_ref, storage_targets, measurement_type)
       VALUES ($1, $2, 'level', 'Level', 'platform://schemas/number/v1', '{current,timeseries}', 'gauge')`,
      [tenant.tenant_id, type.device_type_id],
    );
    await db.query(
      `INSERT INTO devices (tenant_id, device_type_id, dev_eui, name) SELECT $1, $2, e, 'Tank ' || e FROM unnest($3::text[]) e`,
      [tenant.tenant_id, type.device_type_id, Array.from({ length: DEVICES }, (_, i) => devEuiOf(side, i))],
    );
    const node = (kind, nodeId, block, configuration, x) => ({ kind, nodeId, block, name: nodeId, configuration, position: { x, y: 0 } });
    const outputs = { fields: [{ fieldKey: 'level', schemaRef: 'platform://schemas/number/v1' }] };
    const graph = {
      schemaVersion: 'flow-graph.v2',
      deviceTypeId: type.device_type_id,
      nodes: [
        node('block', 'decode', { type: 'builtin', key: 'decode-binary', version: 1 }, { reads: [{ offset: 0, type: 'uint16be', fieldKey: 'level' }] }, 0),
        node('block', 'scale', { type: 'builtin', key: 'scale', version: 1 }, { fieldKey: 'level', multiply: 0.1, add: 0 }, 200),
        node('current-output', 'current', null, outputs, 400),
        node('timeseries-output', 'history', null, outputs, 400),
        ...(side === 'with' ? [node('block', 'mail', { type: 'builtin', key: 'email-action', version: 1 }, { emailTemplateId: template.email_template_id }, 400)] : []),
      ],
      edges: [
        { fromNodeId: 'decode', toNodeId: 'scale' },
        { fromNodeId: 'scale', toNodeId: 'current' },
        { fromNodeId: 'scale', toNodeId: 'history' },
        ...(side === 'with' ? [{ fromNodeId: 'scale', toNodeId: 'mail' }] : []),
      ],
    };
    const flow = await api('POST', `/v1/device-types/${type.device_type_id}/flow`, { key: `level-${side}`, name: `Level ${side}` });
    const flowVersion = (await api('POST', `/v1/flows/${flow.body.flowId}/versions`, { graph })).body;
    await api('POST', `/v1/flows/${flow.body.flowId}/versions/${flowVersion.flowVersionId}/release`);
    await api('POST', `/v1/flows/${flow.body.flowId}/activate`, { flowVersionId: flowVersion.flowVersionId }, { 'If-Match': flow.etag });
    types[side] = type.device_type_id;
  }
  const { body } = await api('POST', `/v1/tenants/${tenant.tenant_number}/ingestion-credentials`, { name: 'bench' });
  return { tenantId: tenant.tenant_id, templateId: template.email_template_id, versionId: version.email_template_version_id, token: body.token };
}

/** Posts `count` uplinks of the side's devices over CONNECTIONS keep-alive sockets. */
async function post(serviceUrl, token, side, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const { hostname, port } = new URL(serviceUrl);
  let next = 0;
  const one = (i) =>
    new Promise((done) => {
      const devEui = devEuiOf(side, i % DEVICES).toLowerCase();
      const body = JSON.stringify({
        deduplicationId: randomUUID(),
        time: new Date().toISOString(),
        deviceInfo: { devEui, deviceName: devEui, applicationId: 'bench', tenantId: 'bench' },
        fPort: 1,
        fCnt: i,
        data: Buffer.from([(i >> 8) & 0xff, i & 0xff]).toString('base64'),
      });
      const req = http.request(
        {
          agent,
          hostname,
          port,
          method: 'POST',
          path: '/v1/ingestion/chirpstack?event=up',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => done(res.statusCode));
        },
      );
      req.on('error', () => done(0));
      req.end(body);
    });
  const loop = async () => {
    while (next < count) {
      const status = await one(next++);
      if (status !== 202) throw new Error(`ingest answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  agent.destroy();
}

async function drained(db) {
  for (;;) {
    const {
      rows: [row],
    } = await db.query(`SELECT count(*)::int AS n FROM raw_ingestion_messages WHERE processing_status = 'pending'`);
    if (row.n === 0) return;
    await sleep(50);
  }
}

/** CPU seconds of the processing service (and PostgreSQL) for `count` executions of one side. */
async function measure(db, ingest, processor, postmaster, token, side, count) {
  const before = cpuSeconds({ processor: { pid: processor.pid, children: true } }, postmaster);
  await post(ingest.url, token, side, count);
  await drained(db);
  const after = cpuSeconds({ processor: { pid: processor.pid, children: true } }, postmaster);
  return { service: after.processor - before.processor, postgres: after.postgres - before.postgres };
}

async function executionCpu(db, databaseUrl, seeded, postmaster) {
  const ingest = await startService(databaseUrl, { env: { PROCESSING_ENABLED: 'false', JOBS_ENABLED: 'false' } });
  const processor = await startService(databaseUrl, { env: { JOBS_ENABLED: 'false' } });
  try {
    for (const side of ['without', 'with']) await measure(db, ingest, processor, postmaster, seeded.token, side, 500); // warm-up
    const totals = { without: { service: 0, postgres: 0 }, with: { service: 0, postgres: 0 } };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? ['without', 'with'] : ['with', 'without']) {
        const cpu = await measure(db, ingest, processor, postmaster, seeded.token, side, MESSAGES);
        totals[side].service += cpu.service;
        totals[side].postgres += cpu.postgres;
      }
    }
    const perThousand = (seconds) => (seconds / (MESSAGES * ROUNDS)) * 1000;
    const {
      rows: [requests],
    } = await db.query(`SELECT count(*)::int AS n FROM flow_action_requests`);
    process.stdout.write(`Live executions, CPU per 1,000 (${MESSAGES * ROUNDS} each side, ${ROUNDS} alternating rounds; ${requests.n} e-mail requests recorded):\n`);
    for (const side of ['without', 'with']) {
      process.stdout.write(
        `  ${side === 'with' ? 'with email-action   ' : 'without email-action'}  service ${perThousand(totals[side].service).toFixed(3)} s   PostgreSQL ${perThousand(totals[side].postgres).toFixed(3)} s\n`,
      );
    }
    const ratio = totals.with.service / totals.without.service;
    const ratioAll = (totals.with.service + totals.with.postgres) / (totals.without.service + totals.without.postgres);
    process.stdout.write(`  ratio with/without: service ${ratio.toFixed(2)}x (goal <= 1.3x), service + PostgreSQL ${ratioAll.toFixed(2)}x\n`);
  } finally {
    await processor.stop();
    await ingest.stop();
  }
}

/** EMAILS deliveries queued in one transaction with their send jobs (rendered at their first attempt). */
async function queueDeliveries(db, seeded, batch) {
  await db.query('BEGIN');
  await db.query(
    `INSERT INTO email_deliveries (email_delivery_id, tenant_id, email_template_id, email_template_version_id, recipient_email, status, message_id, next_attempt_at)
     SELECT id, $1, $2, $3, 'r' || i || '@${batch}.bench.test', 'queued', '<' || id || '@bench.test>', clock_timestamp()
       FROM (SELECT gen_random_uuid() AS id, i FROM generate_series(1, $4) i) s`,
    [seeded.tenantId, seeded.templateId, seeded.versionId, EMAILS],
  );
  await db.query(
    `INSERT INTO jobs (queue, name, payload, max_attempts, run_at)
     SELECT 'email', 'actions.email.send', jsonb_build_object('emailDeliveryId', email_delivery_id), 30, clock_timestamp()
       FROM email_deliveries WHERE recipient_email LIKE $1`,
    [`%@${batch}.bench.test`],
  );
  await db.query(`SELECT pg_notify('uplink_jobs', 'email')`);
  await db.query('COMMIT');
}

async function throughput(db, databaseUrl, seeded, sink, processes) {
  const batch = `b${processes}`;
  const env = { PROCESSING_ENABLED: 'false', SMTP_URL: sink.url, MAIL_FROM: 'bench@bench.test' };
  const services = [];
  for (let i = 0; i < processes; i++) services.push(await startService(databaseUrl, { env }));
  try {
    await queueDeliveries(db, seeded, batch);
    for (;;) {
      const {
        rows: [row],
      } = await db.query(`SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*)::int AS total FROM email_deliveries WHERE recipient_email LIKE $1`, [
        `%@${batch}.bench.test`,
      ]);
      if (row.sent === row.total) break;
      await sleep(100);
    }
    const {
      rows: [figures],
    } = await db.query(
      `SELECT extract(epoch FROM max(sent_at) - min(created_at))::float8 AS span,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - created_at)) AS p50,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM sent_at - created_at)) AS p99,
              count(*) FILTER (WHERE attempt_count <> 1)::int AS retried
         FROM email_deliveries WHERE recipient_email LIKE $1`,
      [`%@${batch}.bench.test`],
    );
    process.stdout.write(
      `${String(processes)} service process${processes === 1 ? ' ' : 'es'}: ${Math.round(EMAILS / figures.span)} deliveries/s ` +
        `(${EMAILS} queued at once, all sent in ${figures.span.toFixed(1)} s; ${figures.retried} needed a retry), ` +
        `lag queued -> sent p50 ${Number(figures.p50).toFixed(2)} s, p99 ${Number(figures.p99).toFixed(2)} s\n`,
    );
  } finally {
    for (const service of services) await service.stop();
  }
}

async function main() {
  const database = await throwAwayDatabase('email');
  const sink = await startSink();
  const db = new Client({ connectionString: database.url });
  try {
    const setup = await startService(database.url, { env: { PROCESSING_ENABLED: 'false', JOBS_ENABLED: 'false' } });
    await db.connect();
    let seeded;
    try {
      seeded = await seed(db, await apiOf(setup.url));
    } finally {
      await setup.stop();
    }
    const postmaster = await postmasterOf(db);
    if (PARTS.includes('cpu')) await executionCpu(db, database.url, seeded, postmaster);
    // The requests of part 1 are not part of part 2.
    await db.query(`UPDATE flow_action_requests SET status = 'done'`);
    await db.query(`DELETE FROM jobs WHERE name = 'actions.email.expand'`);
    process.stdout.write(`Delivery throughput to an in-process SMTP server (JOBS_CONCURRENCY 4 and SMTP pool of 5 per process, the defaults):\n`);
    if (PARTS.includes('throughput')) for (const processes of [1, 2]) await throughput(db, database.url, seeded, sink, processes);
    process.stdout.write(`(accepted by the SMTP server in total: ${sink.accepted})\n`);
  } finally {
    await db.end().catch(() => undefined);
    await sink.close();
    await database.drop();
  }
}

main().catch(fail);
