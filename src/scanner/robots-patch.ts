/**
 * A robots.txt that says what the site does. When robots.txt and the edge disagree (a
 * contradictory headline, or an edge that turns away an agent robots.txt allows), the site's own
 * file is changed as little as possible so that, for every agent whose edge answer was decided,
 * robots.txt allows it where the edge lets it in and disallows it where the edge turns it away.
 * The patch is checked with the same RFC 9309 matcher the verdicts use before it is offered; a
 * patch that would not say what the edge does is never offered. The opposite direction, the edge
 * rule to change instead, is named in the attributed platform's words (data/platforms/).
 *
 * Lines an edge adds to the file (a managed block, robots-managed.ts) are never edited: an agent
 * whose verdict those lines decide is left to the vendor's setting, which the patch names instead.
 * An agent served a robots.txt of its own (robots-copies.ts) is left out too: a patch of the
 * browser's copy is not the file that agent reads.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { components } from '../../generated/api-types.ts';
import { PLATFORMS } from './data/platforms/index.ts';
import { listed } from './data/platforms/types.ts';
import type { ScanEvidence } from './evidence.ts';
import type { AgentRow } from './matrix.ts';
import type { PlatformAttribution } from './platforms.ts';
import { readRobots, robotsSays, type RobotsFile, type RobotsSays } from './robots.ts';
import { ownsDifferentCopy } from './robots-copies.ts';
import { managedSetting } from './robots-managed.ts';
import { managedFinding } from './robots-report.ts';
import { decidingRule, parseRobotsRules, rulesFor, type RobotsRule } from './robots-rules.ts';
import type { Headline } from './types.ts';

export type RobotsPatch = components['schemas']['RobotsPatch'];
type Target = { token: string; allow: boolean };

/** A byte-order mark, CR LF or CR line ends and a missing last newline change no rule. */
export function normaliseText(text: string): string {
  const t = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  return t === '' || t.endsWith('\n') ? t : `${t}\n`;
}

const decides = (r: RobotsRule) => decidingRule([r], '/') !== null;
const agreed = (says: RobotsSays, allow: boolean) => (allow ? says === 'allowed' || says === 'partial' : says === 'blocked');

/** What the edge did with an agent on every decided network, or undefined when undecided or split. */
export function edgeStance(row: AgentRow): 'allows' | 'denies' | undefined {
  if (row.agent.tokenOnly || row.agent.contextOnly || row.decided.length === 0 || row.disagree) return undefined;
  return row.denied.length === row.decided.length ? 'denies' : 'allows';
}

function asFile(text: string): RobotsFile {
  return readRobots({ ok: true, status: 200, contentType: 'text/plain', body: text, edgeOutcome: 'pass' });
}

/** The rules an agent keeps in a group of its own: its old rules minus those that decide "/" the other way. */
function rulesLines(before: RobotsFile, t: Target): string[] {
  if (!t.allow) return ['Disallow: /'];
  const kept = (before.state === 'parsed' ? rulesFor(parseRobotsRules(before.lines.join('\n')), t.token)?.rules ?? [] : []).filter((r) => r.allow || !decides(r));
  return kept.length ? kept.map((r) => before.lines[r.line - 1]!.trim()) : ['Allow: /'];
}

/**
 * `inPlace`: a group naming only agents that move the same way has its rules edited where it
 * stands; otherwise (and always when `inPlace` is false) the agents' user-agent lines leave their
 * groups and each gets a group of its own at the end.
 */
function patchText(before: RobotsFile, targets: readonly Target[], inPlace: boolean, frozen: (line: number) => boolean): string {
  const lines = before.state === 'parsed' ? before.lines.slice() : [];
  const byToken = new Map(targets.map((t) => [t.token.toLowerCase(), t]));
  const drop = new Set<number>();
  const insert = new Map<number, string[]>();
  const moved = new Set<string>();
  const editable = (g: { agentLines: number[] }) => !g.agentLines.some(frozen);
  for (const g of parseRobotsRules(lines.join('\n')).groups) {
    if (!editable(g)) continue;
    const moving = g.tokens.filter((t) => byToken.has(t));
    if (moving.length === 0) continue;
    const ways = new Set(moving.map((t) => byToken.get(t)!.allow));
    if (inPlace && moving.length === g.tokens.length && ways.size === 1) {
      const allow = [...ways][0]!;
      for (const r of g.rules) if (r.allow !== allow && decides(r)) drop.add(r.line);
      const left = g.rules.filter((r) => !drop.has(r.line));
      if (!left.some((r) => r.allow === allow && decides(r)) && (!allow || left.length === 0)) insert.set(Math.max(...g.agentLines), [allow ? 'Allow: /' : 'Disallow: /']);
      continue;
    }
    const all = moving.length === g.tokens.length;
    g.tokens.forEach((t, i) => { if (byToken.has(t)) { drop.add(g.agentLines[i]!); moved.add(t); } });
    if (all) for (const r of g.rules) drop.add(r.line);
  }
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (!drop.has(i + 1)) out.push(l);
    for (const extra of insert.get(i + 1) ?? []) out.push(extra);
  });
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  const parsed = parseRobotsRules(lines.join('\n'));
  const own = (t: Target) => parsed.groups.some((g) => editable(g) && g.tokens.includes(t.token.toLowerCase()));
  const appended = targets.filter((t) => moved.has(t.token.toLowerCase()) || !own(t));
  // Agents that end with the same rules share one group, as a person would write it.
  const groups = new Map<string, string[]>();
  for (const t of appended) {
    const rules = rulesLines(before, t).join('\n');
    groups.set(rules, [...(groups.get(rules) ?? []), t.token]);
  }
  for (const [rules, tokens] of groups) {
    if (out.length) out.push('');
    out.push(...tokens.map((t) => `User-agent: ${t}`), rules);
  }
  return normaliseText(out.join('\n'));
}

function saysAll(file: RobotsFile, rows: readonly AgentRow[]): Map<string, RobotsSays> {
  return new Map(rows.map((r) => [r.agent.token, robotsSays(file, r.agent).says]));
}

export function proposeRobotsPatch(ev: ScanEvidence, headline: Headline, platforms: readonly PlatformAttribution[]): RobotsPatch | undefined {
  if (ev.robots.state === 'unknown') return undefined;
  const decided = ev.rows.filter((r) => !ownsDifferentCopy(ev.robotsTxt, r.agent.token))
    .map((r) => ({ row: r, edge: edgeStance(r) })).filter((x): x is { row: AgentRow; edge: 'allows' | 'denies' } => x.edge !== undefined);
  const wrong = decided.filter(({ row, edge }) => !agreed(row.robots.says, edge === 'allows'));
  const deniedButAllowed = wrong.filter((w) => w.edge === 'denies');
  if (wrong.length === 0 || (headline !== 'contradictory' && deniedButAllowed.length === 0)) return undefined;

  // The browser's copy is the file patched; a managed block in it stays as served.
  const found = ev.robotsTxt ? managedFinding(ev.robotsTxt, ev.roster) : null;
  const block = found && ev.robotsTxt?.control?.managed === found.block ? found.block : null;
  const frozen = (line: number) => block !== null && line >= block.firstLine && line <= block.lastLine;
  const byManaged = block ? wrong.filter((w) => found!.agents.includes(w.row.agent.token)) : [];
  const ownWrong = wrong.filter((w) => !byManaged.includes(w));
  const targets = ownWrong.map(({ row, edge }) => ({ token: row.agent.token, allow: edge === 'allows' }));
  const beforeText = ev.robots.state === 'parsed' ? normaliseText(ev.robots.lines.join('\n')) : '';
  const rows = decided.map((d) => d.row);
  const ok = (text: string) => {
    const says = saysAll(asFile(text), rows);
    return decided.every(({ row, edge }) => byManaged.some((m) => m.row === row) || agreed(says.get(row.agent.token)!, edge === 'allows'));
  };
  const afterText = targets.length === 0 ? beforeText : [patchText(ev.robots, targets, true, frozen), patchText(ev.robots, targets, false, frozen)].find(ok);
  if (afterText === undefined) return undefined;
  const after = saysAll(asFile(afterText), rows);
  const unifiedDiff = targets.length === 0 ? '' : createTwoFilesPatch('robots.txt', 'robots.txt', beforeText, afterText, ev.robots.state === 'parsed' ? 'as served' : 'none served (404)', 'proposed', { context: 3, headerOptions: FILE_HEADERS_ONLY });
  const setting = block ? managedSetting(block.vendor) : undefined;
  const managedTokens = byManaged.map((w) => w.row.agent.token);

  const letIn = wrong.filter((w) => w.edge === 'allows').map((w) => w.row.agent.token);
  const turnedAway = deniedButAllowed.map((w) => w.row.agent.token);
  const reason = [
    letIn.length ? `robots.txt disallows ${listed(letIn)}, which the edge lets in${headline === 'contradictory' ? ' and the site invites' : ''}` : '',
    turnedAway.length ? `the edge turns away ${listed(turnedAway)}, which robots.txt allows` : '',
  ].filter(Boolean).join('; ');
  const managedWords = block && managedTokens.length ? ` What robots.txt says to ${listed(managedTokens)} comes from ${block.vendorName}'s managed block (lines ${block.firstLine}–${block.lastLine}), which this patch leaves as served: change ${block.vendorName}'s setting instead.` : '';
  return {
    reason: `${reason.replace(/^the /, 'The ')}.${managedWords}`,
    unifiedDiff,
    agents: ownWrong.map(({ row, edge }) => ({ ua: row.agent.token, edge, before: row.robots.says, after: after.get(row.agent.token)! })),
    edgeAlternative: edgeAlternative(platforms, letIn, turnedAway),
    ...(block && setting && managedTokens.length ? { managed: { vendor: block.vendor, agents: managedTokens, setting: setting.setting, docUrl: setting.docUrl, text: setting.fix(managedTokens) } } : {}),
  };
}

/** The other way to agree: leave robots.txt as it is and change the edge. */
function edgeAlternative(platforms: readonly PlatformAttribution[], deny: readonly string[], allow: readonly string[]): RobotsPatch['edgeAlternative'] {
  const edge = platforms.map((a) => PLATFORMS.find((p) => p.id === a.id)).find((p) => p?.edgeRule);
  if (!edge?.edgeRule) {
    const parts = [deny.length ? `blocks ${listed(deny)}` : '', allow.length ? `lets ${listed(allow)} through` : ''].filter(Boolean);
    return { platform: null, docUrl: null, text: `Or keep robots.txt and change the edge (WAF, bot manager or server rule) so that it ${parts.join(' and ')}.` };
  }
  const parts = [deny.length ? edge.edgeRule.deny(deny) : '', allow.length ? edge.edgeRule.allow(allow) : ''].filter(Boolean);
  return { platform: edge.id, docUrl: edge.edgeRule.docUrl, text: `Or keep robots.txt and change ${edge.name} instead: ${parts.join(' ')}` };
}
