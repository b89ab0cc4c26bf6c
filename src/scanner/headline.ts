/**
 * vantagesConfirmed, the headline, its reasons and the confidence, by the
 * first-match rules of shared/design/verdicts.md.
 *
 * Wording rule: we only ever say that requests *identifying as* an agent
 * from cloud networks were challenged or blocked; never that a vendor's bot
 * is blocked (our probes are not the vendor's verified crawler).
 * Context-only agents (Googlebot, whose unverified UA edges rightly refuse)
 * are shown in the matrix but take no part here.
 */
import { vendorName } from './fingerprints.ts';
import { invitations } from './features.ts';
import { probableCauses, signedTrafficReasons } from './causes.ts';
import { robotsSays } from './robots.ts';
import { robotsFileFor } from './robots-copies.ts';
import type { ScanEvidence } from './evidence.ts';
import type { AgentRow } from './matrix.ts';
import type { Headline } from './types.ts';

export interface HeadlineResult {
  headline: Headline;
  reasons: string[];
  confidence: 'high' | 'medium' | 'low';
  confidenceNote: string;
  vantagesConfirmed: boolean;
}

/** "a", "a and b", "a, b and c", "a, b, c, d, e, f and 20 more". */
function list(items: readonly string[], max = 6): string {
  if (items.length <= 1) return items.join('');
  if (items.length > max) return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function vendorsOf(rows: readonly AgentRow[]): string[] {
  return [...new Set(rows.flatMap((r) => r.entry.attributedVendors))].map(vendorName);
}

export function vantagesConfirmed(ev: ScanEvidence): boolean {
  const bothPassed = ev.controls.networkA.outcome === 'pass' && ev.controls.networkB.outcome === 'pass';
  const bAnswered = ev.rows.some((r) => r.decided.includes('networkB'));
  return bothPassed && bAnswered;
}

export function decideHeadline(ev: ScanEvidence): HeadlineResult {
  const confirmed = vantagesConfirmed(ev);
  const rows = ev.rows.filter((r) => !r.agent.tokenOnly && !r.agent.contextOnly);
  const reasons: string[] = [];
  let headline: Headline;

  const bothDecided = rows.filter((r) => (r.robots.says === 'allowed' || r.robots.says === 'partial') && r.decided.length === 2);
  const hostile = confirmed && bothDecided.length > 0 && bothDecided.every((r) => r.denied.length === 2);
  const invites = ev.robots.state === 'parsed' ? invitations(ev) : [];
  const refusedBy: Array<{ agent: string; path: string; line: number | null; lineText: string | null }> = [];
  if (invites.length > 0) {
    const paths = [...new Set(['/', ...invites.map((i) => i.path)])];
    for (const a of ev.roster.filter((x) => x.intent === 'user-fetch' || x.intent === 'search')) {
      for (const path of paths) {
        // Each agent's own copy (robots-copies.ts): what it is served is what it obeys.
        const answer = robotsSays(robotsFileFor(ev.robotsTxt, ev.robots, a.token), a, path);
        if (answer.says === 'blocked') {
          refusedBy.push({ agent: a.token, path, line: answer.line, lineText: answer.lineText });
          break;
        }
      }
    }
  }
  const anyDecided = rows.some((r) => r.decided.length > 0);
  const denials = rows.filter((r) => r.denied.length > 0);

  if (hostile) {
    headline = 'agent-hostile';
    reasons.push(`robots.txt allows ${list(bothDecided.map((r) => r.agent.token))}, but requests identifying as them from both cloud networks were ${describeDenials(bothDecided, ev)}${offerSuffix(bothDecided)}${vendorSuffix(vendorsOf(bothDecided))}.`);
    reasons.push('Ordinary browser requests from the same two networks received the page, so the edge treats agent-identifying requests from cloud servers as hostile.');
  } else if (invites.length > 0 && refusedBy.length > 0) {
    headline = 'contradictory';
    const first = refusedBy[0]!;
    reasons.push(`The site invites agents with ${list([...new Set(invites.map((i) => i.what))])}, yet robots.txt disallows ${first.path === '/' ? 'the whole site' : first.path} for ${list(refusedBy.map((x) => x.agent))}${first.line ? ` (line ${first.line}: "${first.lineText}")` : ''}.`);
  } else if (ev.usable.length === 0 || !anyDecided) {
    headline = 'unknown';
    if (ev.usable.length === 0) {
      reasons.push(`Neither cloud network received the home page with a browser user-agent (networkA: ${ev.controls.networkA.outcome}, networkB: ${ev.controls.networkB.outcome}). This is a limit of the measurement, not a deficiency of the site.`);
    } else {
      reasons.push('The browser control received the page, but no agent request gave a decidable answer. This is a limit of the measurement, not a deficiency of the site.');
    }
  } else if (denials.length > 0) {
    headline = 'partially-blocked';
    // One sentence per pattern (same networks, outcomes and vendors), not one per agent.
    const groups = new Map<string, AgentRow[]>();
    for (const r of denials) {
      const k = [r.denied.join('+'), describeDenials([r], ev), r.entry.attributedVendors.join('+'), r.robots.says === 'blocked'].join('|');
      groups.set(k, [...(groups.get(k) ?? []), r]);
    }
    for (const g of groups.values()) {
      const r = g[0]!;
      const consistent = r.robots.says === 'blocked' ? '; robots.txt disallows them as well, so the edge is consistent with it' : '';
      reasons.push(`Requests identifying as ${list(g.map((x) => x.agent.token))} from ${list(r.denied)} were ${describeDenials([r], ev)}${offerSuffix([r])}${vendorSuffix(vendorsOf([r]))}${consistent}.`);
    }
    const passed = rows.filter((r) => r.passed.length > 0 && r.denied.length === 0);
    if (passed.length) reasons.push(`${passed.length} other agent${passed.length === 1 ? '' : 's'} received the page.`);
  } else {
    headline = 'open';
    const passed = rows.filter((r) => r.passed.length > 0);
    reasons.push(`All ${passed.length} agents measured received the home page from ${list(ev.usable)}; none was challenged or blocked.`);
  }
  if (headline !== 'unknown') reasons.push(...probableCauses(ev, rows), ...signedTrafficReasons(ev));
  const blockedByRobots = rows.filter((r) => r.robots.says === 'blocked');
  if (headline !== 'contradictory' && blockedByRobots.length) {
    const first = blockedByRobots[0]!.robots;
    reasons.push(`robots.txt disallows / for ${list(blockedByRobots.map((r) => r.agent.token))}${first.line ? ` (for example line ${first.line}: "${first.lineText}")` : ''}.`);
  }
  if (ev.robots.state === 'unknown') reasons.push(`${ev.robots.reason}, so what robots.txt says to each agent is unknown.`);
  return { headline, reasons, vantagesConfirmed: confirmed, ...confidence(ev, confirmed, headline, rows) };
}

function outcomeWord(r: AgentRow, n: 'networkA' | 'networkB', ev: ScanEvidence): string {
  const cell = ev.rows.includes(r) ? r.entry.edgeDoes?.[n] : undefined;
  if (cell === 'auth' && r.entry.httpStatus?.[n] === 402) return 'asked to pay';
  return ({ challenge: 'challenged', block: 'blocked', 'rate-limited': 'rate-limited', auth: 'asked to sign in' } as Record<string, string>)[cell ?? ''] ?? 'turned away';
}

function describeDenials(rows: readonly AgentRow[], ev: ScanEvidence): string {
  const words = new Set(rows.flatMap((r) => r.denied.map((n) => outcomeWord(r, n, ev))));
  return list([...words].sort());
}

/** The payment offers (HTTP 402) behind these rows' denials, as a suffix for a reason. */
function offerSuffix(rows: readonly AgentRow[]): string {
  const offers = [...new Set(rows.flatMap((r) => r.entry.notes.flatMap((note) => /; payment offer: (.*)$/.exec(note)?.[1] ?? [])))];
  return offers.length ? ` (offer: ${list(offers, 2)})` : '';
}

function vendorSuffix(vendors: readonly string[]): string {
  return vendors.length ? ` (edge: ${list(vendors)})` : '';
}

function confidence(ev: ScanEvidence, confirmed: boolean, headline: Headline, rows: readonly AgentRow[]): { confidence: 'high' | 'medium' | 'low'; confidenceNote: string } {
  const disagreeing = rows.filter((r) => r.disagree).map((r) => r.agent.token);
  const decidedAgents = rows.filter((r) => r.decided.length > 0).length;
  if (headline === 'unknown') return { confidence: 'low', confidenceNote: 'Low: the vantages could not measure the site, so the headline is unknown.' };
  if (disagreeing.length) return { confidence: 'low', confidenceNote: `Low: the two networks disagree for ${list(disagreeing)}.` };
  if (decidedAgents < 3) return { confidence: 'low', confidenceNote: `Low: only ${decidedAgents} agent${decidedAgents === 1 ? '' : 's'} could be decided.` };
  if (ev.usable.length === 1) return { confidence: 'medium', confidenceNote: `Medium: only ${ev.usable[0]} was usable, so nothing was confirmed from a second network.` };
  if (ev.robots.state === 'unknown') return { confidence: 'medium', confidenceNote: 'Medium: robots.txt could not be read.' };
  if (confirmed) return { confidence: 'high', confidenceNote: 'High: both networks were usable and agree, and robots.txt was read.' };
  return { confidence: 'medium', confidenceNote: 'Medium: the second network gave no decidable agent answer.' };
}
