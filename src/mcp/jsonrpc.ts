/**
 * JSON-RPC 2.0 message classification for POST /mcp.
 *
 * The SDK 1.x transport reports a missing `jsonrpc` or a null id as -32700 and
 * processes batch arrays; JSON-RPC 2.0 and MCP >= 2025-06-18 want -32600 and no
 * batches, so we classify the parsed body ourselves before the SDK sees it.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

export type RpcId = string | number;

export interface RpcRequest { kind: 'request'; id: RpcId; method: string; params?: Record<string, unknown> }
export interface RpcNotification { kind: 'notification'; method: string }
export interface RpcResponse { kind: 'response' }
export interface RpcInvalid { kind: 'invalid'; id: RpcId | null; message: string }

export type Classified = RpcRequest | RpcNotification | RpcResponse | RpcInvalid;

export interface RpcErrorBody {
  jsonrpc: '2.0';
  id: RpcId | null;
  error: { code: number; message: string; data?: unknown };
}

export function rpcError(id: RpcId | null, code: number, message: string, data?: unknown): RpcErrorBody {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

export const parseError = (): RpcErrorBody => rpcError(null, ErrorCode.ParseError, 'Parse error: the body is not valid JSON.');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// MCP narrows JSON-RPC ids: string or integer, never null (spec 2025-11-25 basic#requests).
// Safe integers only: the SDK's schema drops a message whose id is beyond 2^53, and the
// request would then hang with no answer (found by test/hostile/fuzz.test.ts).
const isId = (v: unknown): v is RpcId => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));

export function classify(body: unknown): Classified {
  if (Array.isArray(body)) {
    return { kind: 'invalid', id: null, message: 'Invalid Request: batch arrays are not supported; send one JSON-RPC message per POST.' };
  }
  if (!isObject(body)) return { kind: 'invalid', id: null, message: 'Invalid Request: the body must be a JSON-RPC 2.0 object.' };
  const id = isId(body.id) ? body.id : null;
  if (body.jsonrpc !== '2.0') return { kind: 'invalid', id, message: 'Invalid Request: "jsonrpc" must be "2.0".' };
  if (typeof body.method !== 'string') {
    // A client may post a response to a server request; we never send any, but the spec says accept with 202.
    if (isId(body.id) && ('result' in body || 'error' in body)) return { kind: 'response' };
    return { kind: 'invalid', id, message: 'Invalid Request: "method" must be a string.' };
  }
  if ('params' in body && !isObject(body.params)) {
    return { kind: 'invalid', id, message: 'Invalid Request: "params" must be an object.' };
  }
  if (!('id' in body)) return { kind: 'notification', method: body.method };
  if (!isId(body.id)) return { kind: 'invalid', id: null, message: 'Invalid Request: "id" must be a string or an integer.' };
  const req: RpcRequest = { kind: 'request', id: body.id, method: body.method };
  if (isObject(body.params)) req.params = body.params;
  return req;
}

/** The request as the SDK expects it on the wire. */
export function toWire(req: RpcRequest): { jsonrpc: '2.0'; id: RpcId; method: string; params?: Record<string, unknown> } {
  return req.params === undefined
    ? { jsonrpc: '2.0', id: req.id, method: req.method }
    : { jsonrpc: '2.0', id: req.id, method: req.method, params: req.params };
}
