// The bare Express baseline: a JSON route and a sized page, nothing else (no logging, no validation).
// Run as a child process; prints "listening <port>" once ready.
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.get('/', (_req, res) => {
  res.json({ ok: true, service: 'hello' });
});
// The same number of bytes a read of the service sends, so its share can also be judged
// against bare Express doing the same transfer (the load generator shares the cores, and
// reading a 12 KB page costs it more than reading 30 bytes).
const bodies = new Map<number, Buffer>();
app.get('/sized/:bytes', (req, res) => {
  const n = Math.min(Number(req.params.bytes) || 0, 1 << 20);
  let body = bodies.get(n);
  if (!body) bodies.set(n, (body = Buffer.alloc(n, 'x')));
  res.type('html').send(body);
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
