/*
 * `npm run bench:http`: GET /healthz through Uplink's full pipeline (the built service, started here as
 * `node dist/main.js`) against a bare Express "hello" server, same autocannon settings for both, each server in
 * its own process. Prints both req/s and the ratio (goal: >= 0.6). Prints figures; never fails on a number.
 *
 * BENCH_CONNECTIONS (default 50), BENCH_DURATION seconds (default 10), DATABASE_URL (optional: else a throw-away
 * embedded PostgreSQL).
 */
const { fail, measure, startServers } = require('./support');

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const duration = Number(process.env.BENCH_DURATION ?? 10);

async function main() {
  const servers = await startServers();
  try {
    process.stdout.write(`autocannon: ${connections} connections, ${duration} s per target (after a warm-up run)\n`);
    const pipeline = await measure('Uplink GET /healthz', { url: `${servers.uplinkUrl}/healthz`, connections, duration });
    const baseline = await measure('bare Express GET /', { url: servers.helloUrl, connections, duration });
    const ratio = pipeline.reqPerSec / baseline.reqPerSec;
    process.stdout.write(`ratio ${ratio.toFixed(2)} (goal >= 0.60: ${ratio >= 0.6 ? 'met' : 'NOT met'})\n`);
  } finally {
    await servers.stop();
  }
}

main().catch(fail('bench:http'));
