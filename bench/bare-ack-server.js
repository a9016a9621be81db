// The floor of `npm run bench:ingest`'s ack path: Node's own HTTP server doing the least a webhook intake can do
// (read the body, parse it as JSON, answer 202 with an acknowledgement of the service's shape), with no database,
// no framework and no checks. What it costs per request is what any Node service pays before its own work.
const { randomUUID } = require('node:crypto');
const http = require('node:http');

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') {
    res.statusCode = 200;
    res.end('ok');
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let parsed = null;
    try {
      parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      // not JSON: answered 400 below
    }
    const ok = parsed !== null && typeof parsed === 'object' && req.headers.authorization !== undefined;
    const body = ok ? JSON.stringify({ rawIngestionMessageId: randomUUID(), receivedAt: new Date().toISOString(), duplicate: false }) : '{"error":"bad request"}';
    res.statusCode = ok ? 202 : 400;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
