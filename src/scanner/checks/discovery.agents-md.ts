// Standard: AGENTS.md (https://agents.md/, github.com/agentsmd/agents.md), free-form Markdown for agents; RFC 7763 text/markdown.
// AGENTS.md is a repository file; sites publish the same kind of file for visiting agents at /agents.md.
import { judgeFile, insteadNote } from '../file-judge.ts';
import { ALL, inconclusive, matched, partial, pass, type CheckDefinition } from './define.ts';

export const AGENTS_MD_PATH = '/agents.md';
const GENERATION = 'agents.md at the site root';

/** Media types an agent reads as text as they are; anything else (text/html above all) may be rendered or refused. */
const TEXT_TYPES = /^\s*(text\/markdown|text\/x-markdown|text\/plain)\s*(;|$)/i;

/** The first Markdown heading, for the detail (free-form files may have none). */
function firstHeading(body: string): string | null {
  const m = /^\s{0,3}#{1,6}\s+(.+?)\s*#*\s*$/m.exec(body.slice(0, 16 * 1024));
  return m ? m[1]!.slice(0, 80) : null;
}

export const check: CheckDefinition = {
  id: 'discovery.agents-md', name: 'An agents.md tells agents how to use the site', category: 'discovery', weight: 1, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'AGENTS.md (https://agents.md/): a free-form Markdown file for agents, no required fields; served at /agents.md as text/markdown (RFC 7763)',
  why: 'AGENTS.md is the "README for agents" that coding agents (Codex, Cursor, Copilot, Jules, Aider and others) read in a repository (agents.md); sites publish the same kind of file at /agents.md to tell visiting agents where their MCP server, API, authentication and rate limits are (worldmonitor.app, the Deno and Arcjet docs). An SPA host answers a missing .md path with its HTML shell and status 200 (botiverse/hands#138), which hands an agent a page, not the file.',
  fix: 'If the site has something to tell agents (an MCP server, an API, sign-in, limits, a contact), serve it as Markdown at /agents.md with Content-Type text/markdown; as a real file in the build output (public/ or static/) it is served before the SPA fallback on Vercel, Netlify and Cloudflare Pages.',
  evaluate(ev) {
    const v = ev.files[AGENTS_MD_PATH];
    if (!v) return inconclusive(`${AGENTS_MD_PATH} was not read by this scan`);
    const j = judgeFile(v);
    if (j.state === 'unknown') return inconclusive(`${AGENTS_MD_PATH} could not be fetched (${v.ok ? `HTTP ${v.status}${v.outcome !== 'pass' ? `, ${v.outcome}` : ''}` : v.record.errorCode ?? 'no answer'})`);
    // An optional file: absent is not applicable, never a fault (as for the preview's other new files).
    if (j.state === 'absent') return inconclusive(`no ${AGENTS_MD_PATH}${insteadNote(v)}: not applicable`);
    const heading = firstHeading(v.body);
    const what = `${AGENTS_MD_PATH} is served (${v.body.length} characters${heading ? `, “${heading}”` : ''})`;
    if (TEXT_TYPES.test(v.contentType)) return matched(GENERATION, pass(`${what} as ${v.contentType.split(';')[0]!.trim()}`));
    const type = v.contentType.split(';')[0]!.trim() || 'no Content-Type';
    return matched(GENERATION, partial(500, `${what}, but as ${type}: an agent that renders HTML or refuses binary types may not read it as Markdown; serve it as text/markdown`));
  },
};
