// Standard: MCP server discovery drafts (SEP-1649 /.well-known/mcp.json; SEP-2127 server card). Draft: low weight.
import { insteadNote } from '../file-judge.ts';
import { fileState } from '../evidence.ts';
import { mcpManifest } from '../features.ts';
import { fail, inconclusive, pass, type CheckDefinition } from './define.ts';

export const check: CheckDefinition = {
  id: 'discovery.mcp-card', name: 'An MCP server card is published', category: 'discovery', weight: 3, profiles: ['dev-platform'], since: 'rubric-v1.0',
  standard: 'Model Context Protocol server discovery (SEP-1649, SEP-2127; drafts)',
  why: 'A server card tells agents where the platform\'s MCP server lives and how to connect.',
  fix: 'Serve /.well-known/mcp/server-card.json (or /.well-known/mcp.json) with the server name and its remote URL.',
  evaluate(ev) {
    const m = mcpManifest(ev);
    if (m) return pass(`MCP server card at ${m.path}`);
    const paths = ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json'];
    if (paths.some((p) => fileState(ev.files[p]) === 'unknown')) return inconclusive('MCP discovery paths could not be fetched');
    return fail(`no MCP server card at the well-known paths${paths.map((p) => insteadNote(ev.files[p])).find(Boolean) ?? ''}`);
  },
};
