// The bare Express baseline: one JSON route, nothing else (no logging, no validation).
// Run as a child process; prints "listening <port>" once ready.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.get('/', (_req, res) => {
  res.json({ ok: true, service: 'hello' });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
