/**
 * A broken server built on the SDK's low-level Server, so a real SDK frames
 * every reply: initialize echoes whatever version is asked for, tools/list
 * serves invalid schemas, unknown methods get -32000 instead of -32601, and
 * resources/list and prompts/list serve items the conformance suite rejects
 * (a resource without a name, a prompt without a description).
 */
import express from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InitializeRequestSchema, ListPromptsRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { quietBadJson } from './sdk-tools.ts';

function brokenServer(): Server {
  const capabilities = { tools: {}, resources: {}, prompts: {} };
  const server = new Server({ name: 'broken-sdk', version: '0.0.1' }, { capabilities });
  server.setRequestHandler(InitializeRequestSchema, async (req) => ({
    protocolVersion: req.params.protocolVersion, capabilities, serverInfo: { name: 'broken-sdk', version: '0.0.1' },
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [{ uri: 'file:///readme.md' }] }) as never);
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [{ name: 'summarize' }] }) as never);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      { name: 'no_schema_type', description: 'Root is not an object.', inputSchema: { type: 'object', properties: { q: { type: 'strin' } } } },
      { name: 'no description', inputSchema: { type: 'object', required: 'q' } },
    ],
  }) as never);
  server.fallbackRequestHandler = async (req) => { throw new McpError(-32000, `No such thing: ${req.method}`); };
  return server;
}

export function brokenSdk(): express.Express {
  const app = express();
  app.use(express.json());
  app.use(quietBadJson);
  app.post('/mcp', async (req, res) => {
    const server = brokenServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { void transport.close(); void server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return app;
}
