/**
 * The modern era (spec 2026-07-28): no handshake, every request names its
 * version and client capabilities in `params._meta`, mirrored in headers.
 * We answer server/discover, tools/list and tools/call this way, which makes
 * the server dual-era (spec 2026-07-28 basic/versioning).
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { rpcError, type RpcRequest } from './jsonrpc.ts';
import { SERVER_INFO } from './server.ts';
import { INSTRUCTIONS, MODERN_VERSION, SUPPORTED_VERSIONS } from './types.ts';

export const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CAPS = 'io.modelcontextprotocol/clientCapabilities';

// Error codes the modern revision reserves (spec 2026-07-28 basic/index#error-codes).
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_VERSION = -32022;

/** Tool and discovery answers are the same for every caller, so caches may share them for an hour. */
const TTL_MS = 3_600_000;

export interface Reply { status: number; body: Record<string, unknown> }

export function discoverResult(): Record<string, unknown> {
  return {
    resultType: 'complete',
    supportedVersions: [...SUPPORTED_VERSIONS],
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    ttlMs: TTL_MS,
    cacheScope: 'public',
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: SERVER_INFO.name, title: SERVER_INFO.title, version: SERVER_INFO.version } },
  };
}

export function metaOf(req: RpcRequest): Record<string, unknown> | undefined {
  const meta = req.params?._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? meta as Record<string, unknown> : undefined;
}

/** A request belongs to the modern era when its header or its `_meta` says so. */
export function isModern(req: RpcRequest, headerVersion: string | undefined): boolean {
  return headerVersion === MODERN_VERSION || metaOf(req)?.[META_VERSION] !== undefined;
}

/**
 * Validates the modern envelope (version, capabilities, Mcp-Method/Mcp-Name
 * headers). Returns an error reply, or null when the request may proceed.
 */
export function checkModernEnvelope(req: RpcRequest, header: (name: string) => string | undefined): Reply | null {
  const meta = metaOf(req);
  const version = meta?.[META_VERSION];
  const headerVersion = header('mcp-protocol-version');
  if (typeof version !== 'string') {
    return bad(rpcError(req.id, ErrorCode.InvalidParams, `Missing params._meta["${META_VERSION}"].`));
  }
  if (version !== MODERN_VERSION) {
    return bad(rpcError(req.id, UNSUPPORTED_VERSION, `Unsupported protocol version: ${version}.`, { supported: [...SUPPORTED_VERSIONS], requested: version }));
  }
  if (headerVersion !== version) {
    return bad(rpcError(req.id, HEADER_MISMATCH, 'The MCP-Protocol-Version header must match params._meta.', { header: headerVersion ?? null, meta: version }));
  }
  const caps = meta?.[META_CAPS];
  if (typeof caps !== 'object' || caps === null || Array.isArray(caps)) {
    return bad(rpcError(req.id, ErrorCode.InvalidParams, `Missing params._meta["${META_CAPS}"].`));
  }
  if (header('mcp-method') !== req.method) {
    return bad(rpcError(req.id, HEADER_MISMATCH, 'The Mcp-Method header must match the request method.', { header: header('mcp-method') ?? null, method: req.method }));
  }
  if (req.method === 'tools/call' && header('mcp-name') !== req.params?.name) {
    return bad(rpcError(req.id, HEADER_MISMATCH, 'The Mcp-Name header must match params.name.'));
  }
  return null;
}

/** Methods the modern revision removed or never had get HTTP 404 with -32601. */
export function modernMethodNotFound(req: RpcRequest): Reply {
  return { status: 404, body: { ...rpcError(req.id, ErrorCode.MethodNotFound, `Method not found: ${req.method}`) } };
}

/** Every modern result names its type; list results also carry caching hints (SEP-2549). */
export function modernize(response: Record<string, unknown>, method: string): Record<string, unknown> {
  const result = response.result;
  if (typeof result !== 'object' || result === null) return response;
  const extra = method === 'tools/list' ? { ttlMs: TTL_MS, cacheScope: 'public' } : {};
  return { ...response, result: { resultType: 'complete', ...result, ...extra } };
}

function bad(body: ReturnType<typeof rpcError>): Reply {
  return { status: 400, body: { ...body } };
}
