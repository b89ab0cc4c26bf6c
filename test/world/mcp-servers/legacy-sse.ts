/**
 * A 2024-11-05 HTTP+SSE-only server (SDK SSEServerTransport): GET /mcp opens
 * the stream with an `endpoint` event, messages go to /messages; POST /mcp is 405.
 */
import express from 'express';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { sdkServer } from './sdk-tools.ts';

export function legacySse(): { app: express.Express; close(): Promise<void> } {
  const app = express();
  const transports = new Map<string, SSEServerTransport>();
  app.get('/mcp', async (_req, res) => {
    const transport = new SSEServerTransport('/messages', res);
    transports.set(transport.sessionId, transport);
    res.on('close', () => transports.delete(transport.sessionId));
    await sdkServer('legacy-sse').connect(transport);
  });
  app.post('/messages', express.json(), async (req, res) => {
    const t = transports.get(String(req.query.sessionId));
    if (!t) return void res.status(404).send('unknown session');
    await t.handlePostMessage(req, res, req.body);
  });
  app.post('/mcp', (_req, res) => { res.status(405).set('Allow', 'GET').send('Use GET for the event stream.'); });
  return { app, close: async () => { for (const t of transports.values()) await t.close(); } };
}
