/**
 * The HTTP side of /mcp for the app's handlers (src/handlers/postMcp.ts, getMcp.ts): the
 * app's pipeline has read the body (128 KB on the wire, lenient JSON) and answered 413/415;
 * these map one JSON-RPC message in and out, serve the legacy SSE hint, and refuse foreign
 * Hosts (DNS rebinding).
 */
import type { Request, Response } from 'express';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { parseError, rpcError } from './jsonrpc.ts';
import { dispatch } from './dispatch.ts';
import { allowedHostSet, checkHost } from './host.ts';
import { DEFAULT_SSE, openLegacyStream } from './sse.ts';
import type { McpDeps } from './types.ts';

export const MCP_BODY_LIMIT = '128kb';


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
