/** The tools every SDK-built test server registers: a described, annotated pair. */
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { NextFunction, Request, Response } from 'express';

export function quietBadJson(err: { status?: number }, _req: Request, res: Response, next: NextFunction): void {
  if (err.status !== 400) return next(err);
  res.status(400).type('html').send('<!DOCTYPE html><pre>Bad Request</pre>');
}

export function sdkServer(name: string): McpServer {
  const server = new McpServer({ name, version: '2.3.4', title: `Test server ${name}` }, { instructions: `The ${name} test server.` });
  server.registerTool('echo', {
    description: 'Returns the message it was given.',
    inputSchema: { message: z.string().describe('Text to echo back') },
    outputSchema: { echoed: z.string() },
    annotations: { title: 'Echo', readOnlyHint: true, openWorldHint: false },
  }, async ({ message }) => ({ content: [{ type: 'text', text: message }], structuredContent: { echoed: message } }));
  server.registerTool('list_things', {
    description: 'Lists the things this server knows about.',
    inputSchema: {},
  }, async () => ({ content: [{ type: 'text', text: 'apple, pear' }] }));
  return server;
}
