// The baseline for `npm run bench:http`: a bare Express "hello" on the same machine.
const express = require('express');

const app = express();
app.get('/', (_req, res) => {
  res.send('hello');
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => {
  process.stdout.write('ready\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
