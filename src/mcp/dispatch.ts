/**
 * One parsed POST /mcp body in, one HTTP reply out. Pure of express so the
 * rules (status codes, era handling, where we correct the SDK) read in one place.
 */
import {
  CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { classify, rpcError, type RpcRequest } from './jsonrpc.ts';
import { checkModernEnvelope, discoverResult, isModern, modernize, modernMethodNotFound, UNSUPPORTED_VERSION, type Reply } from './modern.ts';
import { runThroughSdk } from './server.ts';
import { TOOL_NAMES } from './tools/index.ts';
import { SUPPORTED_VERSIONS, type CallContext, type McpDeps } from './types.ts';

export type HttpReply = { status: number; body: Record<string, unknown> | null };
export type HeaderLookup = (name: string) => string | undefined;

// The SDK parses params with zod inside the handler and reports a failure as
// -32603; validating first with the SDK's own schemas gives the -32602 that
// JSON-RPC prescribes for invalid params.
const PARAM_SCHEMAS: Record<string, { safeParse(v: unknown): { success: boolean; error?: { issues: unknown[] } } }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
};

export async function dispatch(body: unknown, header: HeaderLookup, deps: McpDeps, ctx: CallContext): Promise<HttpReply> {
  const msg = classify(body);
  if (msg.kind === 'invalid') return { status: 400, body: { ...rpcError(msg.id, ErrorCode.InvalidRequest, msg.message) } };
  // Notifications and client responses are accepted without a body (spec basic/transports, "Sending Messages").
  if (msg.kind !== 'request') return { status: 202, body: null };

  const headerVersion = header('mcp-protocol-version');
  if (isModern(msg, headerVersion)) return modernRequest(msg, header, deps, ctx);
  // Legacy: an unknown MCP-Protocol-Version header MUST get 400 (spec 2025-11-25 basic/transports#protocol-version-header).
  if (headerVersion !== undefined && !SUPPORTED_VERSIONS.includes(headerVersion)) {
    return { status: 400, body: { ...rpcError(msg.id, UNSUPPORTED_VERSION, `Unsupported protocol version: ${headerVersion}.`, { supported: [...SUPPORTED_VERSIONS], requested: headerVersion }) } };
  }
  if (msg.method === 'server/discover') return ok({ jsonrpc: '2.0', id: msg.id, result: discoverResult() });
  const invalid = checkParams(msg);
  if (invalid) return ok(invalid);
  return ok(await viaSdk(msg, deps, ctx));
}

/** A fault inside the SDK or a tool is still a JSON-RPC answer to this id, never an HTML 500. */
async function viaSdk(req: RpcRequest, deps: McpDeps, ctx: CallContext): Promise<Record<string, unknown>> {
  try {
    return await runThroughSdk(req, deps, ctx);
  } catch {
    return { ...rpcError(req.id, ErrorCode.InternalError, 'Internal error') };
  }
}

async function modernRequest(req: RpcRequest, header: HeaderLookup, deps: McpDeps, ctx: CallContext): Promise<HttpReply> {
  const refused = checkModernEnvelope(req, header);
  if (refused) return refused;
  if (req.method === 'server/discover') return ok({ jsonrpc: '2.0', id: req.id, result: discoverResult() });
  if (req.method !== 'tools/list' && req.method !== 'tools/call') return modernMethodNotFound(req) satisfies Reply;
  const invalid = checkParams(req);
  if (invalid) return ok(invalid);
  return ok(modernize(await viaSdk(req, deps, ctx), req.method));
}

function checkParams(req: RpcRequest): Record<string, unknown> | null {
  // Own keys only: a method named after an Object.prototype member ("constructor") is unknown.
  const schema = Object.hasOwn(PARAM_SCHEMAS, req.method) ? PARAM_SCHEMAS[req.method] : undefined;
  if (schema) {
    const parsed = schema.safeParse({ method: req.method, ...(req.params ? { params: req.params } : {}) });
    if (!parsed.success) {
      return { ...rpcError(req.id, ErrorCode.InvalidParams, `Invalid params for ${req.method}.`, { issues: parsed.error?.issues }) };
    }
  }
  // An unknown tool is a protocol error (spec 2025-11-25 server/tools#error-handling);
  // the SDK would answer it as an isError result instead.
  if (req.method === 'tools/call' && !TOOL_NAMES.has(String(req.params?.name))) {
    return { ...rpcError(req.id, ErrorCode.InvalidParams, `Unknown tool: ${String(req.params?.name)}`) };
  }
  // We never hand out a cursor, so any cursor is invalid (spec server/utilities/pagination).
  if (req.method === 'tools/list' && req.params?.cursor !== undefined) {
    return { ...rpcError(req.id, ErrorCode.InvalidParams, 'Invalid cursor.') };
  }
  return null;
}

const ok = (body: Record<string, unknown>): HttpReply => ({ status: 200, body });
