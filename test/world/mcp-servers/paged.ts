/**
 * Servers whose tools/list paginates, built on the SDK's low-level Server
 * (McpServer never pages): five tools over three pages, or (loop) a cursor
 * that keeps coming back.
 */
import express from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const TOOLS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((name) => ({
  name, description: `The ${name} tool.`, inputSchema: { type: 'object' as const, additionalProperties: false },
}));

function pagedServer(loop: boolean): Server {
  const server = new Server({ name: loop ? 'cursor-loop' : 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (req) => {
    if (loop) return { tools: TOOLS.slice(0, 2), nextCursor: 'again' };
    const start = req.params?.cursor ? Number(req.params.cursor) : 0;
    if (!Number.isInteger(start) || start < 0 || start >= TOOLS.length) throw new McpError(ErrorCode.InvalidParams, 'Invalid cursor');
    const next = start + 2;
    return { tools: TOOLS.slice(start, next), ...(next < TOOLS.length ? { nextCursor: String(next) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    throw new McpError(ErrorCode.InvalidParams, `Tool ${req.params.name} not found`);
  });
  return server;
}

export function paged(loop = false): express.Express {
  const app = express();
  app.use(express.json());
  app.use((err: { status?: number }, _req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (err.status !== 400) return next(err);
    res.status(400).json({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  });
  app.post('/mcp', async (req, res) => {
    const server = pagedServer(loop);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { void transport.close(); void server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.get('/mcp', (_req, res) => { res.status(405).set('Allow', 'POST').end(); });
  return app;
}
