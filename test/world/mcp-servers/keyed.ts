/** The good server whose manifest declares an endpoint with a key in its query string. */
import express from 'express';
import { goodStateless } from './good-stateless.ts';

export function keyed(): express.Express {
  const app = express();
  app.get('/.well-known/mcp.json', (_req, res) => {
    res.json({ version: '1.0', protocolVersion: '2025-11-25', serverInfo: { name: 'good-stateless', version: '2.3.4' },
      transport: { type: 'streamable-http', endpoint: '/mcp?key=k-123' }, capabilities: { tools: {} }, authentication: { required: false } });
  });
  app.use(goodStateless());
  return app;
}
