/**
 * One McpServer per request, driven through an in-process transport.
 *
 * Why not the SDK's StreamableHTTPServerTransport: our HTTP contract differs
 * from its defaults (missing Accept tolerated, batches refused, -32600 for
 * invalid requests, modern-era requests), so HTTP is ours while JSON-RPC
 * dispatch, initialize negotiation, tool input validation and output-schema
 * checks stay the SDK's.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from './tools/index.ts';
import { INSTRUCTIONS, SERVER_NAME, SERVER_VERSION, type CallContext, type McpDeps } from './types.ts';
import type { RpcRequest } from './jsonrpc.ts';
import { toWire } from './jsonrpc.ts';

export const SERVER_INFO = {
  name: SERVER_NAME,
  title: 'agent-readiness',
  version: SERVER_VERSION,
  description: 'Scans websites for AI-agent readiness and lists the checks it applies.',
};

export function buildMcpServer(deps: McpDeps, ctx: CallContext): McpServer {
  const server = new McpServer(
    { ...SERVER_INFO, websiteUrl: deps.baseUrl },
    // No listChanged: a stateless server has no channel to announce changes on.
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  for (const tool of TOOLS) tool.register(server, deps, ctx);
  return server;
}

/** Resolves with the first JSON-RPC response the server sends; progress and log notifications are dropped. */
class OneShotTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  readonly reply: Promise<JSONRPCMessage>;
  private settle!: (message: JSONRPCMessage) => void;

  constructor() {
    this.reply = new Promise((resolve) => { this.settle = resolve; });
  }
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    if ('id' in message && ('result' in message || 'error' in message)) this.settle(message);
  }
  async close(): Promise<void> { this.onclose?.(); }
}

/** Runs one request through a fresh server and returns its JSON-RPC response. */
export async function runThroughSdk(req: RpcRequest, deps: McpDeps, ctx: CallContext): Promise<Record<string, unknown>> {
  const server = buildMcpServer(deps, ctx);
  const transport = new OneShotTransport();
  await server.connect(transport);
  try {
    transport.onmessage?.(toWire(req) as JSONRPCMessage);
    const reply = (await transport.reply) as unknown as Record<string, unknown>;
    return req.method === 'initialize' ? withoutListChanged(reply) : reply;
  } finally {
    await server.close();
  }
}

/**
 * McpServer declares `tools.listChanged: true` as soon as a tool is registered;
 * a stateless server has no stream to send that notification on, so we
 * declare plain `tools` (mcp.md §8).
 */
function withoutListChanged(reply: Record<string, unknown>): Record<string, unknown> {
  const result = reply.result as { capabilities?: Record<string, unknown> } | undefined;
  if (!result?.capabilities) return reply;
  return { ...reply, result: { ...result, capabilities: { ...result.capabilities, tools: {} } } };
}
