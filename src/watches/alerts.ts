// Whether a run notifies: a pure function of the diff between the watch's previous run and
// this one (src/changes/diff.ts) and the watch's threshold. A change is (and /methodology.md
// says so, "What counts as a change"):
//   - the headline changed;
//   - the score fell by at least `threshold` points (under one rubric);
//   - a check went from pass to fail;
//   - a matrix cell went from `pass` to a denial (challenge, block, rate limit, login) on a
//     network whose browser control passed in both scans (a usable network);
//   - robots.txt changed.
// Anything else (a score that rose, a check that now passes, a cell on a network whose control
// failed, a vendor seen) is in the diff but sends nothing. No change: an empty list.
import { EDGE_PHRASE, NETWORK_WORDS, listWords } from '../changes/words.ts';
import type { ReportDiff } from '../changes/diff.ts';

export type ChangeKind = 'headline' | 'score' | 'check' | 'cell' | 'robots-txt';
export interface WatchChange { kind: ChangeKind; text: string }

export const DEFAULT_THRESHOLD = 5;
const DENIALS = new Set(['challenge', 'block', 'rate-limited', 'auth']);

export function changesWorthAlert(d: ReportDiff, threshold: number): WatchChange[] {
  const out: WatchChange[] = [];
  if (d.headline.changed) out.push({ kind: 'headline', text: `The headline went from ${d.headline.before} to ${d.headline.after}.` });
  if (d.score.delta !== null && d.score.delta <= -threshold) {
    out.push({ kind: 'score', text: `The score fell by ${-d.score.delta} points, from ${d.score.before} to ${d.score.after} (the watch's threshold is ${threshold}).` });
  }
  for (const c of d.checks) {
    if (c.before?.status === 'pass' && c.after?.status === 'fail') out.push({ kind: 'check', text: `The check ${c.id} passed and now fails.` });
  }
  // One sentence per (agent group, change) on each network, as the diff page words them.
  const cells = new Map<string, { agents: string[]; network: string; after: string }>();
  for (const c of d.cells) {
    if (!c.network || !c.usable.before || !c.usable.after || c.edge.before !== 'pass' || !DENIALS.has(String(c.edge.after))) continue;
    const key = `${c.network}|${c.edge.after}`;
    const g = cells.get(key) ?? { agents: [], network: c.network, after: String(c.edge.after) };
    g.agents.push(c.agent);
    cells.set(key, g);
  }
  for (const g of cells.values()) {
    out.push({ kind: 'cell', text: `Requests identifying as ${listWords(g.agents)} from ${NETWORK_WORDS[g.network] ?? g.network} are now ${EDGE_PHRASE[g.after] ?? g.after} (they were served).` });
  }
  if (d.robotsTxt.changed) out.push({ kind: 'robots-txt', text: d.robotsTxt.unifiedDiff ? `robots.txt changed: ${d.robotsTxt.added} line${d.robotsTxt.added === 1 ? '' : 's'} added, ${d.robotsTxt.removed} removed.` : d.robotsTxt.note });
  // A copy served to particular agents only (robots.txt per requester) that changed.
  for (const q of d.robotsTxt.requesters ?? []) if (q.changed) out.push({ kind: 'robots-txt', text: q.note });
  return out;
}
