/** The good server discovered through an AI Catalog (SEP-2127 draft) whose entry points at `<endpoint>/server-card`. */
import express from 'express';
import { goodStateless } from './good-stateless.ts';

export function catalog(host: string): express.Express {
  const app = express();
  app.get('/.well-known/ai-catalog.json', (_req, res) => {
    res.type('application/ai-catalog+json').send(JSON.stringify({
      specVersion: '1.0', host: { name: 'Catalog test' },
      entries: [{ identifier: 'net.world-fixtures/good', type: 'application/mcp-server-card+json', url: `https://${host}/mcp/server-card` }],
    }));
  });
  app.get('/mcp/server-card', (_req, res) => {
    res.json({
      $schema: 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json', name: 'com.world-fixtures/good-stateless',
      version: '2.3.4', description: 'The good server, by catalog.',
      remotes: [{ type: 'streamable-http', url: `https://${host}/mcp`, supportedProtocolVersions: ['2025-11-25', '2025-06-18'] }],
    });
  });
  // Only the discovery differs: the good server's own manifest is hidden.
  app.get('/.well-known/mcp.json', (_req, res) => { res.status(404).end(); });
  app.use(goodStateless());
  return app;
}
