/**
 * A server whose handshake is open but whose tools need a token: the good
 * stateless server behind a gate on tools/* (401 + RFC 9728 challenge). The
 * tool checks inherit `policy`; the PRM lookup still runs.
 */
import express from 'express';
import { goodStateless } from './good-stateless.ts';
import { quietBadJson } from './sdk-tools.ts';

export function toolsAuth(host: string): express.Express {
  const app = express();
  const inner = goodStateless();
  app.get('/.well-known/oauth-protected-resource/mcp', (_req, res) => {
    res.json({ resource: `https://${host}/mcp`, authorization_servers: [`https://login.${host}`] });
  });
  app.get('/.well-known/mcp.json', (_req, res) => {
    res.json({ version: '1.0', protocolVersion: '2025-11-25', serverInfo: { name: 'good-stateless', version: '2.3.4' },
      transport: { type: 'streamable-http', endpoint: '/mcp' }, capabilities: { tools: {} }, authentication: { required: true } });
  });
  app.post('/mcp', express.json(), (req, res, next) => {
    const method = (req.body as { method?: unknown } | undefined)?.method;
    if (typeof method !== 'string' || !method.startsWith('tools/')) return next();
    res.status(401)
      .set('WWW-Authenticate', `Bearer error="invalid_token", resource_metadata="https://${host}/.well-known/oauth-protected-resource/mcp"`)
      .json({ error: 'invalid_token', error_description: 'Missing Authorization header' });
  });
  app.use(quietBadJson);
  app.use(inner);
  return app;
}
