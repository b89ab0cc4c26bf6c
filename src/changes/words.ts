// A diff in plain sentences, most important first: the headline, the score, what the edge now
// does to agent-identifying requests, robots.txt, the checks, the vendors. Read on the diff
// page, by the CLI and in a watch's alert mail. Like the reports, the sentences speak of
// requests identifying as an agent from our networks, never of a vendor's verified crawler.
import type { components } from '../../generated/api-types.ts';

type ReportDiff = components['schemas']['ReportDiff'];
type CellChange = components['schemas']['CellChange'];

export const NETWORK_WORDS: Record<string, string> = { networkA: 'network A', networkB: 'network B' };

/** What the edge did, as the end of "requests identifying as X from network A were …". */
export const EDGE_PHRASE: Record<string, string> = {
  pass: 'served',
  challenge: 'met with a challenge',
  block: 'blocked',
  'rate-limited': 'rate limited',
  auth: 'asked to log in',
  'origin-error': 'answered with a site error',
  'transport-error': 'not answered',
  unprobed: 'not probed',
};

const ROBOTS_PHRASE: Record<string, string> = { allowed: 'allows', blocked: 'disallows', partial: 'partly disallows' };
const ROBOTS_STATE: Record<string, string> = { allowed: 'allowed', blocked: 'disallowed', partial: 'partly disallowed', unknown: 'unreadable' };

/** a, b and c */
export function listWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function scoreSentence(d: ReportDiff): string | null {
  const { before, after, delta } = d.score;
  if (!d.sameRubric) {
    // Said whatever the two numbers are: equal scores under two rubrics are no more alike than unequal ones.
    return `The rubric changed (${d.from.rubricVersion} → ${d.to.rubricVersion}), so the scores (${before ?? 'none'} → ${after ?? 'none'}) are not compared, and only the checks both rubrics share are.`;
  }
  if (delta !== null) {
    if (delta === 0) return null;
    return delta < 0 ? `The score fell by ${-delta}, from ${before} to ${after}.` : `The score rose by ${delta}, from ${before} to ${after}.`;
  }
  if (before === after) return null;
  return before === null ? `The score is ${after} now; the earlier scan had too few decided checks for one.` : `No score now (too few checks could be decided); it was ${before}.`;
}

/** Edge changes on networks usable in both scans, grouped by what changed, so a fleet of agents reads as one line. */
function edgeSentences(cells: readonly CellChange[]): string[] {
  const groups = new Map<string, { before: string; after: string; network: string; agents: string[] }>();
  for (const c of cells) {
    if (!c.network || !c.usable.before || !c.usable.after || c.edge.before === c.edge.after) continue;
    const key = `${c.network}|${c.edge.before}|${c.edge.after}`;
    const g = groups.get(key) ?? { before: String(c.edge.before), after: String(c.edge.after), network: c.network, agents: [] };
    g.agents.push(c.agent);
    groups.set(key, g);
  }
  // The same change on both networks is one sentence.
  const merged = new Map<string, { before: string; after: string; networks: string[]; agents: string[] }>();
  for (const g of groups.values()) {
    const key = `${g.before}|${g.after}|${g.agents.join(',')}`;
    const m = merged.get(key) ?? { before: g.before, after: g.after, networks: [], agents: g.agents };
    m.networks.push(NETWORK_WORDS[g.network] ?? g.network);
    merged.set(key, m);
  }
  return [...merged.values()].map((m) => `Requests identifying as ${listWords(m.agents)} from ${listWords(m.networks)} are now ${EDGE_PHRASE[m.after] ?? m.after} (they were ${EDGE_PHRASE[m.before] ?? m.before}).`);
}

function robotsVerdictSentences(cells: readonly CellChange[]): string[] {
  const seen = new Map<string, string[]>();
  for (const c of cells) {
    if (c.robotsSays.before === c.robotsSays.after) continue;
    const key = `${c.robotsSays.before}|${c.robotsSays.after}`;
    const agents = seen.get(key) ?? [];
    if (!agents.includes(c.agent)) agents.push(c.agent);
    seen.set(key, agents);
  }
  return [...seen.entries()].map(([key, agents]) => {
    const [before, after] = key.split('|') as [string, string];
    const was = ROBOTS_STATE[before] ?? before;
    return after === 'unknown' ? `robots.txt could not be read this time, so it says nothing about ${listWords(agents)} (before: ${was}).`
      : `robots.txt now ${ROBOTS_PHRASE[after] ?? after} ${listWords(agents)} (before: ${was}).`;
  });
}

function checkSentences(d: ReportDiff): string[] {
  const failing = d.checks.filter((c) => c.before?.status === 'pass' && c.after?.status === 'fail').map((c) => c.id);
  const passing = d.checks.filter((c) => c.before?.status === 'fail' && c.after?.status === 'pass').map((c) => c.id);
  const other = d.checks.filter((c) => !failing.includes(c.id) && !passing.includes(c.id))
    .map((c) => `${c.id} (${c.before ? c.before.status : 'absent'} → ${c.after ? c.after.status : 'absent'})`);
  const out: string[] = [];
  if (failing.length) out.push(`Checks that passed and now fail: ${listWords(failing)}.`);
  if (passing.length) out.push(`Checks that failed and now pass: ${listWords(passing)}.`);
  if (other.length) out.push(`Other checks that changed: ${listWords(other)}.`);
  return out;
}

export function summarise(d: ReportDiff): string[] {
  const out: string[] = [];
  if (d.headline.changed) out.push(`The headline went from ${d.headline.before} to ${d.headline.after}.`);
  const score = scoreSentence(d);
  if (score) out.push(score);
  out.push(...edgeSentences(d.cells));
  out.push(...robotsVerdictSentences(d.cells));
  if (d.robotsTxt.changed) out.push(d.robotsTxt.unifiedDiff ? `${d.robotsTxt.note.replace(/\.$/, '')}: ${d.robotsTxt.added} line${d.robotsTxt.added === 1 ? '' : 's'} added, ${d.robotsTxt.removed} removed.` : d.robotsTxt.note);
  for (const r of d.robotsTxt.requesters ?? []) if (r.changed) out.push(r.unifiedDiff ? `${r.note.replace(/\.$/, '')}: ${r.added} line${r.added === 1 ? '' : 's'} added, ${r.removed} removed.` : r.note);
  out.push(...checkSentences(d));
  if (d.confidence.changed) out.push(`Confidence went from ${d.confidence.before} to ${d.confidence.after}.`);
  const unusable = d.cells.filter((c) => c.network && c.usable.before !== c.usable.after).map((c) => c.network!);
  for (const n of [...new Set(unusable)].sort()) {
    const now = d.cells.find((c) => c.network === n)!.usable.after;
    out.push(now ? `${NETWORK_WORDS[n]}'s browser control passes again, so its cells are measured again.` : `${NETWORK_WORDS[n]}'s browser control failed in the later scan, so its cells say nothing about the agents.`);
  }
  if (d.vendors.appeared.length) out.push(`Edge vendors now seen: ${listWords(d.vendors.appeared.map((v) => v.name))}.`);
  if (d.vendors.left.length) out.push(`Edge vendors no longer seen: ${listWords(d.vendors.left.map((v) => v.name))}.`);
  return out;
}
