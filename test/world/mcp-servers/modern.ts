/**
 * A dual-era server (2026-07-28 and 2025): our own /mcp router on fake
 * services. SDK 1.x has no modern-era server, and our router answers
 * server/discover and `_meta` requests, so it stands in for one.
 */
import express from 'express';
import { fakeDeps, mcpApp } from '../../mcp/fakes.ts';

export function modernOurs(host: string): express.Express {
  const app = express();
  // Our own server: the service's real app (production pipeline) with fake services.
  app.use(mcpApp(fakeDeps({ baseUrl: `https://${host}` }), 'production'));
  return app;
}
