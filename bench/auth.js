/*
 * `npm run bench:auth`, in one run:
 *  1. authenticated GET /v1/auth/me (JWT verification + live-session check + user load, the session from the
 *     authorization cache unless AUTH_CACHE_TTL_MS=0 is set for the run) against a bare Express "hello" server
 *     under the same load; goal: ratio >= 0.5.
 *  2. login storm: BENCH_STORM_CONNECTIONS (50) connections of failed logins (random identifiers, real bcrypt
 *     cost 12, throttles lifted so every attempt reaches bcrypt) while a second client measures the p99 of
 *     GET /v1/diagnostics/version; goal: p99 under the storm < 2x its idle p99.
 * Prints figures; never fails on a number.
 */
const { randomBytes } = require('node:crypto');
const { fail, load, measure, print, startServers } = require('./support');

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const stormConnections = Number(process.env.BENCH_STORM_CONNECTIONS ?? 50);
const ADMIN = { username: 'bench-admin', email: 'bench-admin@example.com', password: 'bench-admin-password-1' };

async function main() {
  const servers = await startServers({
    BCRYPT_COST: '12',
    PLATFORM_ADMIN_USERNAME: ADMIN.username,
    PLATFORM_ADMIN_EMAIL: ADMIN.email,
    PLATFORM_ADMIN_PASSWORD: ADMIN.password,
    PLATFORM_ADMIN_PASSWORD_CHANGE_REQUIRED: 'false',
    // The storm must reach bcrypt (worst case for the CPU), and the readers must not be rate limited.
    LOGIN_IP_ATTEMPTS_PER_MINUTE: '100000',
    LOGIN_MAX_FAILURES: '1000',
    RATE_LIMIT_PER_MINUTE: '1000000',
  });
  try {
    const res = await fetch(`${servers.uplinkUrl}/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: ADMIN.username, password: ADMIN.password }),
    });
    if (res.status !== 200) throw new Error(`login answered ${res.status}`);
    const { accessToken } = await res.json();
    const headers = { Authorization: `Bearer ${accessToken}` };

    const ttl = process.env.AUTH_CACHE_TTL_MS ?? '30000';
    process.stdout.write(
      `1) authenticated reads: ${connections} connections, ${duration} s per target; authorization cache ${ttl === '0' ? 'off' : `on (AUTH_CACHE_TTL_MS=${ttl})`}\n`,
    );
    const me = await measure('Uplink GET /v1/auth/me', { url: `${servers.uplinkUrl}/v1/auth/me`, headers, connections, duration });
    const hello = await measure('bare Express GET /', { url: servers.helloUrl, connections, duration });
    const ratio = me.reqPerSec / hello.reqPerSec;
    process.stdout.write(`   ratio ${ratio.toFixed(2)} (goal >= 0.50: ${ratio >= 0.5 ? 'met' : 'NOT met'})\n`);

    process.stdout.write(`2) login storm: ${stormConnections} connections of failed logins for ${duration} s, version read by 2 connections\n`);
    const version = { url: `${servers.uplinkUrl}/v1/diagnostics/version`, headers, connections: 2, duration };
    const idle = await measure('GET /v1/diagnostics/version idle', version);
    const storm = load({
      url: `${servers.uplinkUrl}/v1/auth/login`,
      connections: stormConnections,
      duration,
      requests: [
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          setupRequest: (request) => ({
            ...request,
            body: JSON.stringify({ identifier: `storm-${randomBytes(6).toString('hex')}`, password: 'wrong-password' }),
          }),
        },
      ],
    });
    const [underStorm, stormResult] = await Promise.all([load(version), storm]);
    const busy = print('GET /v1/diagnostics/version storm', underStorm);
    print('POST /v1/auth/login (failing)', stormResult);
    const growth = busy.p99Ms / Math.max(1, idle.p99Ms);
    process.stdout.write(
      `   p99 ${idle.p99Ms} ms idle -> ${busy.p99Ms} ms under the storm: x${growth.toFixed(2)} (goal < 2: ${growth < 2 ? 'met' : 'NOT met'})\n`,
    );
  } finally {
    await servers.stop();
  }
}

main().catch(fail('bench:auth'));
