// The durable floor of `npm run bench:ingest`'s ack path: the bare node:http intake of bare-ack-server.js, but each
// 202 waits for the uplink's raw row to be committed by the service's own group-commit writer (RawMessageWriter of
// the build in dist/, on the service's own pool settings, into the working tree's database). No framework, no token
// check, no input checks, no metrics, no access log: what a stored acknowledgement costs before any of the
// service's rules. Env: PORT, DATABASE_URL, TENANT_ID and CREDENTIAL_ID (the rows' tenant and credential), DIST.
const http = require('node:http');
const { join } = require('node:path');

const dist = process.env.DIST;
const { createDataSource } = require(join(dist, 'database', 'data-source'));
const { RawMessageWriter } = require(join(dist, 'modules', 'ingestion', 'ingest', 'raw-message-writer'));
const { chirpStackDedupKey, dedupScope } = require(join(dist, 'modules', 'ingestion', 'ingest', 'deduplication'));

const tenantId = process.env.TENANT_ID;
const credentialId = process.env.CREDENTIAL_ID;
const scope = dedupScope(tenantId);

function answer(res, status, body) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

async function main() {
  const dataSource = createDataSource(process.env.DATABASE_URL);
  await dataSource.initialize();
  const writer = new RawMessageWriter(dataSource);
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') return answer(res, 200, '"ok"');
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let parsed;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return answer(res, 400, '{"error":"bad request"}');
      }
      const devEui = typeof parsed?.deviceInfo?.devEui === 'string' ? parsed.deviceInfo.devEui.toUpperCase() : null;
      const observedAt = typeof parsed?.time === 'string' ? new Date(parsed.time) : null;
      writer
        .store({
          source: 'chirpstack',
          event: 'up',
          credentialId,
          tenantId,
          dedupScope: scope,
          dedupKey: chirpStackDedupKey(typeof parsed?.deduplicationId === 'string' ? parsed.deduplicationId : null),
          devEui,
          observedAt: observedAt && !Number.isNaN(observedAt.getTime()) ? observedAt : null,
          rawPayload: null,
          connectionData: null,
          correlationId: null,
          contentType: 'application/json',
          body,
          receivedAt: new Date(),
          status: 'pending',
        })
        .then(
          (ack) => answer(res, 202, JSON.stringify(ack)),
          () => answer(res, 503, '{"error":"unavailable"}'),
        );
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
  process.on('SIGTERM', () => server.close(() => dataSource.destroy().finally(() => process.exit(0))));
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
