/**
 * Express router for POST/GET/DELETE /mcp and GET /.well-known/mcp.json.
 *
 * It reads the raw body itself (128 KB on the wire) so that malformed JSON
 * becomes a JSON-RPC -32700 reply, never a body-parser HTML page; mount it
 * before any app-wide JSON parser or request validator.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { parseError, rpcError } from './jsonrpc.ts';
import { dispatch } from './dispatch.ts';
import { allowedHostSet, checkHost } from './host.ts';
import { buildMcpManifest } from './manifest.ts';
import { DEFAULT_SSE, openLegacyStream } from './sse.ts';
import type { McpDeps } from './types.ts';

export const MCP_BODY_LIMIT = '128kb';

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type, Accept, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Session-Id, Last-Event-ID',
  'Access-Control-Max-Age': '86400',
};

export function createMcpRouter(deps: McpDeps): Router {
  const router = express.Router();
  const hosts = allowedHostSet(deps.baseUrl, deps.allowedHosts);
  let manifest: Promise<Record<string, unknown>> | undefined;

  const guardHost = (req: Request, res: Response, next: NextFunction): void => {
    res.set(CORS_HEADERS);
    if (!refuseForeignHost(req, res, deps, hosts)) next();
  };

  router.options('/mcp', (_req, res) => { res.set(CORS_HEADERS).status(204).end(); });

  router.post('/mcp', guardHost, (req, res, next) => {
    if (!req.is('application/json')) {
      res.status(415).json({ error: 'Content-Type must be application/json.', hint: 'POST one JSON-RPC 2.0 message with Content-Type: application/json.' });
      return;
    }
    next();
  }, express.raw({ type: () => true, limit: MCP_BODY_LIMIT }), (req, res) => handleMcpPost(req, res, deps));

  // No Host check on GET: the stream carries only the endpoint hint, nothing a rebinding page could use.
  router.get('/mcp', (req, res) => { res.set(CORS_HEADERS); handleMcpGet(req, res, deps); });

  // Stateless: no session to end (spec 2025-11-25 basic/transports#session-management allows 405).
  router.delete('/mcp', (_req, res) => {
    res.status(405).set('Allow', 'GET, POST').json({ error: 'This server keeps no sessions; there is nothing to delete.' });
  });

  router.get('/.well-known/mcp.json', async (_req, res, next) => {
    try {
      manifest ??= buildMcpManifest(deps);
      res.set('Access-Control-Allow-Origin', '*').set('Cache-Control', 'public, max-age=3600').json(await manifest);
    } catch (err) {
      manifest = undefined;
      next(err);
    }
  });

  router.use('/mcp', mcpErrorHandler);
  return router;
}

/**
 * POST /mcp once Host, Content-Type and the body read have been dealt with
 * (by this router, or by the app's pipeline when mounted through the handler table).
 */
export async function handleMcpPost(req: Request, res: Response, deps: McpDeps): Promise<void> {
  const body = parseBody(req.body);
  if (body === PARSE_FAILED) return void res.status(400).json(parseError());
  const reply = await dispatch(body, (name) => headerValue(req, name), deps, { clientIp: req.ip ?? req.socket.remoteAddress ?? '' });
  if (reply.body === null) return void res.status(reply.status).end();
  sendReply(req, res, reply.status, reply.body);
}

/** GET /mcp: the legacy SSE hint, or 406 pointing at the manifest and the POST transport. */
export function handleMcpGet(req: Request, res: Response, deps: McpDeps): void {
  if (acceptsEventStream(req)) return openLegacyStream(req, res, { ...DEFAULT_SSE, ...deps.sse });
  res.status(406).json({
    error: 'GET /mcp only serves an event stream (Accept: text/event-stream).',
    hint: `POST JSON-RPC 2.0 messages to ${deps.baseUrl}/mcp (streamable HTTP); the server is described at ${deps.baseUrl}/.well-known/mcp.json.`,
  });
}

/**
 * The DNS-rebinding Host check for POST. A refusal is a 400 with a JSON-RPC
 * error body, a status the contract declares for POST /mcp; any 4xx satisfies
 * the conformance suite's rebinding scenario.
 */
export function refuseForeignHost(req: Request, res: Response, deps: McpDeps, hosts = allowedHostSet(deps.baseUrl, deps.allowedHosts)): boolean {
  const verdict = checkHost(hosts, req.headers.host, req.headers.origin);
  if (verdict.ok) return false;
  res.status(400).json(rpcError(null, ErrorCode.InvalidRequest, `Invalid Request: ${verdict.error} Use ${deps.baseUrl}/mcp.`));
  return true;
}

const PARSE_FAILED = Symbol('parse failed');

function parseBody(raw: unknown): unknown {
  // An upstream JSON parser may already have run; accept its result rather than re-reading the stream.
  if (!Buffer.isBuffer(raw)) return typeof raw === 'string' ? safeJson(raw) : raw;
  return safeJson(raw.toString('utf8'));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return PARSE_FAILED;
  }
}

function headerValue(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function acceptsEventStream(req: Request): boolean {
  return (req.headers.accept ?? '').toLowerCase().includes('text/event-stream');
}

/**
 * JSON unless the client accepts only SSE. Clients MUST accept both, but curl
 * users and the SDK's legacy SSE client send no Accept or `*\/*`, so we never 406 a POST.
 */
function sendReply(req: Request, res: Response, status: number, body: Record<string, unknown>): void {
  const accept = (req.headers.accept ?? '').toLowerCase();
  const sseOnly = accept.includes('text/event-stream') && !/application\/json|application\/\*|\*\/\*/.test(accept);
  if (!sseOnly) return void res.status(status).json(body);
  res.status(status).set({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.end(`event: message\ndata: ${JSON.stringify(body)}\n\n`);
}

/** Body-reader failures on /mcp: 413 per the Limits table, otherwise JSON instead of express's HTML page. */
function mcpErrorHandler(err: unknown, _req: Request, res: Response, _next: NextFunction): void {
  const e = err as { type?: string; status?: number };
  if (res.headersSent) return void res.end();
  if (e.type === 'entity.too.large' || e.status === 413) {
    res.status(413).json({ error: 'Request body larger than 128 KB.', hint: 'Send one JSON-RPC message per POST, at most 128 KB on the wire.' });
  } else if (e.status === 415 || e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    res.status(415).json({ error: 'Unsupported content encoding or charset.', hint: 'Send UTF-8 JSON without Content-Encoding.' });
  } else if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    res.status(400).json(parseError());
  } else {
    res.status(500).json({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error' } });
  }
}
