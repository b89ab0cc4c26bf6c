/**
 * A hand-rolled server that gets everything wrong the checklist looks at. The
 * SDK cannot be coaxed into these faults, so this one is written by hand:
 * it echoes any protocol version, ignores the version header, lists tools
 * with invalid schemas, bad names, no descriptions and mistyped annotations,
 * answers unknown methods with the wrong code and without the id, runs a
 * nameless tools/call, answers notifications with a body, crashes on
 * malformed JSON, mints a session id with spaces and 404s GET.
 */
import express from 'express';

const TOOLS = [
  { name: 'bad name!', inputSchema: { type: 'string' }, annotations: { readOnlyHint: 'yes' } },
  { name: 'dup', description: 'first', inputSchema: { type: 'object', properties: { a: { type: 'nope' } } } },
  { name: 'dup', description: 'second' },
  { name: 'fine', description: 'A fine tool.', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } },
];

export function broken(): express.Express {
  const app = express();
  app.post('/mcp', express.text({ type: () => true }), (req, res) => {
    let msg: { id?: unknown; method?: string; params?: Record<string, unknown> };
    try {
      msg = JSON.parse(String(req.body));
    } catch {
      return void res.status(500).type('text/html').send('<h1>Internal Server Error</h1>');
    }
    const reply = (result: unknown) => res.json({ jsonrpc: '2.0', id: msg.id, result });
    switch (msg.method) {
      case 'initialize':
        res.set('Mcp-Session-Id', 'session with spaces');
        return reply({ protocolVersion: msg.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'broken' } });
      case 'notifications/initialized': return void res.status(200).json({ ok: true });
      case 'tools/list': return reply({ tools: TOOLS });
      case 'tools/call': return reply({ content: [{ type: 'text', text: 'ran a tool without a name' }] });
      default: return void res.json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'nope' } });
    }
  });
  return app;
}
