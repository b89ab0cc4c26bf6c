import type { Evidence, Outcome } from '../types.ts';
import { gate, inconclusive, needsOpenEndpoint, toolObjects } from './util.ts';

/** Gate for the checks that judge the tool list itself: they need one to judge. */
export function needsTools(ev: Evidence, what: string): Outcome | { tools: Record<string, unknown>[] } {
  const g = needsOpenEndpoint(ev, what);
  if (g) return g;
  // A wall on tools/list alone: the tool checks inherit its policy (mcp.md §9).
  const wall = gate(ev.toolsPages[0] ?? null, what);
  if (wall && ev.toolsPages[0]?.verdict !== 'skipped') return wall;
  const tools = toolObjects(ev);
  if (tools === null) return inconclusive('not_applicable', `${what}: no tool list was obtained.`);
  if (tools.length === 0) return inconclusive('not_applicable', `${what}: the server lists no tools.`);
  return { tools };
}
