/** A stateful Streamable HTTP server (SDK sessions): Mcp-Session-Id on initialize, required afterwards. */
import { randomUUID } from 'node:crypto';
import express from 'express';
import { quietBadJson } from './sdk-tools.ts';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { sdkServer } from './sdk-tools.ts';

export function stateful(): { app: express.Express; close(): Promise<void> } {
  const app = express();
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  app.use(express.json({ limit: '128kb' }));
  // express.json's own HTML 400 for bad JSON, as in the SDK examples, minus the stack trace on stderr.
  app.use(quietBadJson);
  app.post('/mcp', async (req, res) => {
    const sid = req.header('mcp-session-id');
    const known = sid ? sessions.get(sid) : undefined;
    if (known) return known.handleRequest(req, res, req.body);
    if (!sid && isInitializeRequest(req.body)) {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => { sessions.set(id, transport); },
      });
      transport.onclose = () => { if (transport.sessionId) sessions.delete(transport.sessionId); };
      await sdkServer('stateful').connect(transport);
      return transport.handleRequest(req, res, req.body);
    }
    res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: No valid session ID provided' } });
  });
  const bySession = async (req: express.Request, res: express.Response) => {
    const t = sessions.get(req.header('mcp-session-id') ?? '');
    if (!t) return void res.status(400).send('Invalid or missing session ID');
    await t.handleRequest(req, res);
  };
  app.get('/mcp', bySession);
  app.delete('/mcp', bySession);
  return { app, close: async () => { for (const t of sessions.values()) await t.close(); } };
}
