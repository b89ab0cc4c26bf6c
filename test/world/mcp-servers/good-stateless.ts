/**
 * A well-behaved stateless Streamable HTTP server, as the SDK examples build
 * it (simpleStatelessStreamableHttp), plus a consistent SEP-1649 manifest.
 */
import express from 'express';
import { quietBadJson } from './sdk-tools.ts';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { sdkServer } from './sdk-tools.ts';

export function goodStateless(): express.Express {
  const app = express();
  app.use(express.json({ limit: '128kb' }));
  // express.json's own HTML 400 for bad JSON, as in the SDK examples, minus the stack trace on stderr.
  app.use(quietBadJson);
  app.get('/.well-known/mcp.json', (_req, res) => {
    res.json({
      version: '1.0', protocolVersion: '2025-11-25',
      serverInfo: { name: 'good-stateless', version: '2.3.4' },
      transport: { type: 'streamable-http', endpoint: '/mcp' },
      capabilities: { tools: {} }, authentication: { required: false },
    });
  });
  app.post('/mcp', async (req, res) => {
    const server = sdkServer('good-stateless');
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => { void transport.close(); void server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  const notAllowed = (_req: express.Request, res: express.Response) => {
    res.status(405).set('Allow', 'POST').json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed.' } });
  };
  app.get('/mcp', notAllowed);
  app.delete('/mcp', notAllowed);
  return app;
}
