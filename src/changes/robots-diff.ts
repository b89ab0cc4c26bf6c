// robots.txt as two scans read it, compared line by line with jsdiff (the `diff` package): a
// unified diff as `diff -u` prints it. Only what both scans could read is compared; a file one
// scan could not read (a denial, a 5xx) or did not keep is never reported as changed.
import { createTwoFilesPatch, FILE_HEADERS_ONLY, structuredPatch } from 'diff';
import type { components } from '../../generated/api-types.ts';
import { normaliseText } from '../scanner/robots-patch.ts';

export { normaliseText };

export type RobotsTxtChange = components['schemas']['RobotsTxtChange'];

/** A file as one scan read it (storage/queries/scanFiles.ts keeps it). */
export interface KeptFile {
  state: 'present' | 'absent' | 'unknown';
  body?: string;
}

/**
 * Beyond this many changed lines a diff is not drawn (Myers' cost grows with the
 * edits, and robots.txt may be 500 KiB); the change is still reported. A real edit of a robots.txt
 * is a few lines; four hundred is a rewrite (and costs ~0.1 s to draw).
 */
export const MAX_DIFF_EDITS = 400;

const day = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC');

export function robotsTxtChange(before: KeptFile | null, after: KeptFile | null, beforeAt: string, afterAt: string): RobotsTxtChange {
  const stateOf = (f: KeptFile | null) => (f ? f.state : 'not-kept');
  const base = { before: stateOf(before), after: stateOf(after), unifiedDiff: null, added: 0, removed: 0 } as const;
  if (!before || !after) {
    return { ...base, changed: null, note: 'robots.txt was not kept for the earlier scan (it was archived before files were kept), so it cannot be compared.' };
  }
  if (before.state === 'unknown' || after.state === 'unknown') {
    const which = before.state === 'unknown' && after.state === 'unknown' ? 'either scan' : before.state === 'unknown' ? 'the earlier scan' : 'the later scan';
    return { ...base, changed: null, note: `robots.txt could not be read in ${which} (a denial, a server error or no answer), so nothing is claimed about it.` };
  }
  const a = before.state === 'present' ? normaliseText(before.body ?? '') : '';
  const b = after.state === 'present' ? normaliseText(after.body ?? '') : '';
  if (a === b && before.state === after.state) return { ...base, changed: false, note: 'robots.txt is the same in both scans.' };
  const note = before.state === 'absent' ? 'robots.txt appeared: the earlier scan found none (a 4xx, so no rules).'
    : after.state === 'absent' ? 'robots.txt went away: the later scan found none (a 4xx, so no rules).'
      : 'robots.txt changed.';
  const options = { context: 3, maxEditLength: MAX_DIFF_EDITS } as const;
  const hunks = structuredPatch('robots.txt', 'robots.txt', a, b, '', '', options);
  if (!hunks) return { ...base, changed: true, note: `${note} More than ${MAX_DIFF_EDITS} lines changed, too many to list here.` };
  let added = 0;
  let removed = 0;
  for (const h of hunks.hunks) {
    for (const line of h.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  const unifiedDiff = createTwoFilesPatch('robots.txt', 'robots.txt', a, b, `${day(beforeAt)} (before)`, `${day(afterAt)} (after)`, { ...options, headerOptions: FILE_HEADERS_ONLY }) ?? null;
  return { ...base, changed: true, unifiedDiff, added, removed, note };
}

export type RequesterRobotsChange = components['schemas']['RequesterRobotsChange'];

/** An agent's own copy of robots.txt in one scan (one it was served instead of the browser's). */
export interface OwnCopy { sha256: string; file: KeptFile | null }

type RobotsTxtReport = components['schemas']['RobotsTxtReport'];

/**
 * The agents a report says were served a readable copy of robots.txt other than the browser's
 * (on the network the verdicts read), by token, with the copy's SHA-256 and state. Reports made
 * before robots.txt was read per requester have none: every agent got the browser's copy.
 */
export function ownCopiesOf(robotsTxt: RobotsTxtReport | undefined): Map<string, { sha256: string; state: 'present' | 'absent' }> {
  const out = new Map<string, { sha256: string; state: 'present' | 'absent' }>();
  const copies = robotsTxt?.copies ?? [];
  const browser = copies.find((c) => c.requesters.includes('browser'));
  for (const c of copies) {
    if (c === browser || c.state === 'unknown') continue;
    for (const t of c.requesters) out.set(t, { sha256: c.sha256, state: c.state === 'absent' ? 'absent' : 'present' });
  }
  return out;
}

/**
 * robots.txt as particular agents got it, compared between two scans: for every agent served a
 * copy of its own in either scan, its copy before against its copy after (the browser's copy
 * standing in where it had none of its own). Agents with the same pair of copies share one entry.
 */
export function requesterRobotsChanges(
  before: { browser: KeptFile | null; own: ReadonlyMap<string, OwnCopy> },
  after: { browser: KeptFile | null; own: ReadonlyMap<string, OwnCopy> },
  agents: readonly string[], beforeAt: string, afterAt: string,
): RequesterRobotsChange[] {
  const groups = new Map<string, { agents: string[]; a: KeptFile | null; b: KeptFile | null; had: boolean; has: boolean }>();
  for (const t of agents) {
    const x = before.own.get(t);
    const y = after.own.get(t);
    if (!x && !y) continue;
    const key = `${x?.sha256 ?? 'browser'}|${y?.sha256 ?? 'browser'}`;
    const g = groups.get(key) ?? { agents: [], a: x ? x.file : before.browser, b: y ? y.file : after.browser, had: !!x, has: !!y };
    g.agents.push(t);
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => {
    const c = robotsTxtChange(g.a, g.b, beforeAt, afterAt);
    const whose = g.agents.length > 1 ? `${g.agents.slice(0, -1).join(', ')} and ${g.agents.at(-1)}` : g.agents[0]!;
    const how = g.had && g.has ? `robots.txt as ${whose} ${g.agents.length === 1 ? 'gets' : 'get'} it (a copy of ${g.agents.length === 1 ? 'its' : 'their'} own in both scans)`
      : g.has ? `robots.txt as ${whose} ${g.agents.length === 1 ? 'gets' : 'get'} it (a copy of ${g.agents.length === 1 ? 'its' : 'their'} own now; the browser's copy before)`
        : `robots.txt as ${whose} ${g.agents.length === 1 ? 'gets' : 'get'} it (the browser's copy now; a copy of ${g.agents.length === 1 ? 'its' : 'their'} own before)`;
    const note = c.changed === null ? `${how}: ${c.note.replace(/^robots\.txt /, 'it ')}` : c.changed ? `${how} changed.` : `${how} is the same in both scans.`;
    return { agents: g.agents, changed: c.changed, unifiedDiff: c.unifiedDiff, added: c.added, removed: c.removed, note };
  });
}
