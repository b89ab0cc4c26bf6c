/**
 * A modern-only (2026-07-28) server: our dual-era router with the legacy
 * handshake switched off. `initialize` gets 400 with -32022 naming the
 * supported versions, as a modern-only server should (spec 2026-07-28
 * basic/versioning), and GET gets 405.
 */
import express from 'express';
import { fakeDeps, mcpApp } from '../../mcp/fakes.ts';

export function modernOnly(host: string): express.Express {
  const app = express();
  app.use('/mcp', express.json({ limit: '128kb' }), (req, res, next) => {
    if (req.method === 'GET') return void res.status(405).set('Allow', 'POST').end();
    const body = req.body as { id?: unknown; method?: unknown } | undefined;
    if (body?.method !== 'initialize') return next();
    res.status(400).json({ jsonrpc: '2.0', id: body.id ?? null, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } });
  });
  // Bad JSON: let our router answer -32700, as the real server does.
  app.use('/mcp', (err: { status?: number }, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (err.status !== 400) return next(err);
    res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  });
  // Our own server: the service's real app (production pipeline) with fake services.
  app.use(mcpApp(fakeDeps({ baseUrl: `https://${host}` }), 'production'));
  return app;
}
