/**
 * Grading by intent (issue 36 item 7): the owner says what each role of agent should get (allow,
 * block or charge) and the report says, role by role, whether robots.txt and the edge both carry
 * that out, and what to change where they do not. A pure function of the evidence already judged
 * (the matrix rows, the robots.txt copies, the attributed platforms): it never feeds the rubric,
 * the score or the headline, which stay the same whatever the intent.
 *
 * Which agents count ("decided"): a probed agent whose edge answer was decided on every usable
 * network the same way (a split between networks is not the site's stance) and whose robots.txt
 * could be read; a token-only agent (no crawler of its own, e.g. Google-Extended) by robots.txt
 * alone. Googlebot is context only, as in the headline. `charge` wants robots.txt to let the agent
 * in (a crawler that obeys a Disallow never sees the price) and the edge to answer 402.
 */
import type { components } from '../../generated/api-types.ts';
import { PLATFORMS, type PlatformEntry } from './data/platforms/index.ts';
import { listed } from './data/platforms/types.ts';
import type { ScanEvidence } from './evidence.ts';
import type { AgentRow } from './matrix.ts';
import type { PlatformAttribution } from './platforms.ts';
import { ownsDifferentCopy } from './robots-copies.ts';
import { managedSetting } from './robots-managed.ts';
import { managedFinding } from './robots-report.ts';
import { INTENT_ROLES, type IntentWish, type ScanIntent } from './intent-request.ts';
import type { Intent } from './types.ts';

export type IntentReport = components['schemas']['IntentReport'];
export type IntentRole = components['schemas']['IntentRole'];
type IntentFix = components['schemas']['IntentFix'];


type Stance = 'allow' | 'block' | 'charge';

/** One agent as the judgement sees it: what robots.txt says and what the edge did (null: token-only, no edge). */
interface Judged { token: string; robots: 'allow' | 'block'; edge: Stance | null; own: boolean }

/** What the edge did with a probed agent on every decided network; undefined when undecided or split. */
function edgeOf(row: AgentRow): Stance | undefined {
  if (row.decided.length === 0 || row.disagree) return undefined;
  if (row.passed.length === row.decided.length) return 'allow';
  // A 402 asks for payment (classify.ts reads it as `auth` with a payment offer): a price, not a wall.
  return row.denied.every((n) => row.entry.httpStatus?.[n] === 402) ? 'charge' : 'block';
}

function judged(ev: ScanEvidence, row: AgentRow, wish: IntentWish): Judged | undefined {
  if (row.agent.contextOnly || row.robots.says === 'unknown') return undefined;
  const robots = row.robots.says === 'blocked' ? 'block' : 'allow';
  const own = ownsDifferentCopy(ev.robotsTxt, row.agent.token);
  // A token-only agent sends no request of its own, so nothing can answer it 402: no charge to judge.
  if (row.agent.tokenOnly) return wish === 'charge' ? undefined : { token: row.agent.token, robots, edge: null, own };
  const edge = edgeOf(row);
  return edge ? { token: row.agent.token, robots, edge, own } : undefined;
}

const robotsWanted = (wish: IntentWish): 'allow' | 'block' => (wish === 'block' ? 'block' : 'allow');
const robotsOk = (j: Judged, wish: IntentWish) => j.robots === robotsWanted(wish);
const edgeOk = (j: Judged, wish: IntentWish) => j.edge === null || j.edge === wish;

function summary<T extends string, N extends string>(values: readonly T[], none: N): T | 'mixed' | N {
  const set = new Set(values);
  if (set.size === 0) return none;
  return set.size === 1 ? values[0]! : 'mixed';
}

export function judgeIntent(ev: ScanEvidence, intent: ScanIntent, platforms: readonly PlatformAttribution[]): IntentReport {
  const roles: IntentRole[] = [];
  for (const role of INTENT_ROLES) {
    const wish = intent[role];
    if (!wish) continue;
    const agents = ev.rows.filter((r) => r.agent.intent === role).map((r) => judged(ev, r, wish)).filter((j): j is Judged => j !== undefined);
    const robotsMiss = agents.filter((j) => !robotsOk(j, wish));
    const edgeMiss = agents.filter((j) => !edgeOk(j, wish));
    const missed = agents.filter((j) => robotsMiss.includes(j) || edgeMiss.includes(j)).map((j) => j.token);
    const asIntended = agents.length === 0 ? null : missed.length === 0;
    roles.push({
      role, wanted: wish,
      robotsSays: summary(agents.map((j) => j.robots), 'unknown'),
      edgeDoes: summary(agents.flatMap((j) => (j.edge ? [j.edge] : [])), 'undecided'),
      asIntended,
      decidedAgents: agents.map((j) => j.token),
      missed,
      fix: asIntended === false ? fixFor(ev, role, wish, robotsMiss, edgeMiss, platforms) : null,
    });
  }
  const decided = roles.filter((r) => r.asIntended !== null);
  return { roles, asIntended: { met: decided.filter((r) => r.asIntended).length, decided: decided.length } };
}

const ROLE_WORDS: Record<Intent, string> = { training: 'training crawlers', search: 'search crawlers', 'user-fetch': 'user-triggered fetchers', archive: 'archive crawlers' };
const WISH_WORDS: Record<IntentWish, string> = { allow: 'let in', block: 'turned away', charge: 'charged' };

/** What to change: robots.txt lines (or the managed block's setting), then the edge rule or pay-per-crawl setting. */
function fixFor(ev: ScanEvidence, role: Intent, wish: IntentWish, robotsMiss: readonly Judged[], edgeMiss: readonly Judged[], platforms: readonly PlatformAttribution[]): IntentFix {
  const parts: string[] = [`You asked for ${ROLE_WORDS[role]} to be ${WISH_WORDS[wish]}.`];
  let robotsTxt: string | null = null;
  let platform: string | null = null;
  let docUrl: string | null = null;

  const found = ev.robotsTxt ? managedFinding(ev.robotsTxt, ev.roster) : null;
  const setting = found ? managedSetting(found.block.vendor) : undefined;
  const byManaged = setting ? robotsMiss.filter((j) => found!.agents.includes(j.token)) : [];
  const ownCopy = robotsMiss.filter((j) => j.own && !byManaged.includes(j));
  const plain = robotsMiss.filter((j) => !byManaged.includes(j) && !ownCopy.includes(j));
  const says = robotsWanted(wish) === 'block' ? 'disallow' : 'allow';
  if (plain.length) {
    const tokens = plain.map((j) => j.token);
    robotsTxt = [...tokens.map((t) => `User-agent: ${t}`), says === 'disallow' ? 'Disallow: /' : 'Allow: /'].join('\n');
    parts.push(`robots.txt does not ${says} ${listed(tokens)}: put these lines in robots.txt in place of the rules that name ${tokens.length === 1 ? 'it' : 'them'} now.`);
  }
  if (ownCopy.length) parts.push(`The site serves ${listed(ownCopy.map((j) => j.token))} a robots.txt of ${ownCopy.length === 1 ? 'its' : 'their'} own that does not ${says} ${ownCopy.length === 1 ? 'it' : 'them'}: change the rule that serves that copy.`);
  if (byManaged.length && setting) {
    parts.push(`What robots.txt says to ${listed(byManaged.map((j) => j.token))} comes from ${setting.name}'s managed block (${setting.setting}): ${setting.fix(byManaged.map((j) => j.token))}`);
    platform = found!.block.vendor;
    docUrl = setting.docUrl;
  }
  if (edgeMiss.length) {
    const tokens = edgeMiss.map((j) => j.token);
    const did = (['allow', 'block', 'charge'] as const).map((s) => [s, edgeMiss.filter((j) => j.edge === s).map((j) => j.token)] as const)
      .filter(([, t]) => t.length).map(([s, t]) => `${s === 'allow' ? 'lets in' : s === 'block' ? 'turns away' : 'charges'} ${listed(t)}`);
    const edge = platforms.map((a) => PLATFORMS.find((p) => p.id === a.id)).find((p): p is PlatformEntry => p?.edgeRule !== undefined);
    parts.push(`The edge ${listed(did)}.`);
    const rule = edge?.edgeRule;
    if (rule && wish === 'charge' && rule.charge) {
      parts.push(`${edge!.name}: ${rule.charge.text(tokens)}`);
      platform = edge!.id;
      docUrl = rule.charge.docUrl;
    } else if (rule && wish !== 'charge') {
      parts.push(`${edge!.name}: ${wish === 'block' ? rule.deny(tokens) : rule.allow(tokens)}`);
      platform = edge!.id;
      docUrl = rule.docUrl;
    } else if (wish === 'charge') {
      parts.push(`Answer ${listed(tokens)} with 402 and a machine-readable price (pay per crawl's crawler-price header, x402 v2's PAYMENT-REQUIRED or MPP's WWW-Authenticate: Payment) at the edge or the origin${edge ? `; ${edge.name} documents no setting for it` : ''}.`);
    } else {
      parts.push(`Change the edge (WAF, bot manager or server rule) so that it ${wish === 'block' ? 'turns away' : 'lets in'} ${listed(tokens)}.`);
    }
  }
  return { text: parts.join(' '), robotsTxt, platform, docUrl };
}
