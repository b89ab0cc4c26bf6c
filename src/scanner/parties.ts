/**
 * The party that said no (issue 36 item 4): for every matrix cell denied or not measured, who
 * answered, from the evidence that decided it.
 *   - network: our own egress refused or failed (the request never reached the site, or our
 *     proxy refused the tunnel). Never counted against the site. Probes are TLS tunnels through
 *     CONNECT, checked against the site's certificate, so an HTTP answer inside one always comes
 *     from the site's side: only failures before an answer can be ours.
 *   - platform: a hosting or SaaS platform named by its documented headers
 *     (data/refusing-platforms.ts) on the refusal, or on the browser's answer from the same
 *     network when the refusal carries no edge marker of its own (such a platform fronts every
 *     request to the site).
 *   - edge: a CDN, WAF or bot manager whose deny, challenge or rate-limit marker is on the answer.
 *   - origin: none of these: the site's own server (or an edge nobody has fingerprinted yet,
 *     which the evidence line says).
 * A refusal carrying Accept-Signature is the edge asking agents to sign; `asksToSign` keeps the
 * header whether or not this service signs its own probes.
 */
import type { components } from '../../generated/api-types.ts';
import { DENIALS } from './classify.ts';
import { platformByHeaders, REFUSING_PLATFORMS } from './data/refusing-platforms.ts';
import { vendorName } from './fingerprints.ts';
import type { ScanEvidence } from './evidence.ts';
import type { AgentRow } from './matrix.ts';
import { priceReason } from './prices.ts';
import { NETWORKS, type FetchedView, type NetworkName } from './types.ts';

export type RefusingParty = components['schemas']['RefusingParty'];
type PlatformFix = components['schemas']['PlatformFix'];

/** Error codes that say the request failed on our side, before any answer from the site. */
const OURS: Record<string, string> = {
  UNCONFIGURED: 'this network has no egress configured',
  DEADLINE: 'the scan deadline was spent before it was sent',
  BUDGET: 'the scan\'s request budget was spent before it was sent',
  SIGNING: 'our own signer failed, so it was not sent',
  GUARD_REFUSED: 'our egress guard refused the address',
  ABORTED: 'the scan was cancelled',
  BAD_URL: 'the URL could not be requested',
};
const UNDECIDED = new Set(['origin-error', 'transport-error', 'unprobed']);

function decisiveMarker(v: FetchedView): { vendor: string; marker: string } | undefined {
  for (const m of v.record.markers) {
    const vendor = v.record.vendors.find((id) => m.startsWith(`${id}: `));
    if (vendor) return { vendor, marker: m.slice(vendor.length + 2) };
  }
  return undefined;
}

/** Who answered one cell, or undefined when the cell passed. */
export function partyOf(cell: FetchedView, control: FetchedView, siteVendors: readonly string[]): RefusingParty | undefined {
  if (!DENIALS.has(cell.outcome) && !UNDECIDED.has(cell.outcome)) return undefined;
  const sign = cell.ok ? cell.headers['accept-signature'] : undefined;
  const withSign = (p: RefusingParty): RefusingParty => (sign ? { ...p, asksToSign: sign.slice(0, 200) } : p);
  if (!cell.ok) {
    const code = cell.record.errorCode ?? 'PROTOCOL';
    if (OURS[code]) return { party: 'network', evidence: `error ${code}: ${OURS[code]}` };
    // Our proxy's own answer to CONNECT: a 4xx is our egress refusing (an egress policy); a 5xx
    // is the proxy failing to reach the site's address, which says nothing against our network.
    const proxyStatus = code === 'PROXY' ? Number(/\((\d{3})\)/.exec(cell.record.errorMessage ?? '')?.[1] ?? 0) : 0;
    if (code === 'PROXY' && (proxyStatus < 500 || proxyStatus > 599)) return { party: 'network', evidence: `error PROXY: our egress proxy refused the tunnel${proxyStatus ? ` (HTTP ${proxyStatus})` : ''}` };
    const alike = !control.ok ? '; the browser control failed too' : `; the browser control got HTTP ${control.status}`;
    const edge = siteVendors[0];
    return edge ? { party: 'edge', vendor: edge, evidence: `error ${code} from the site's address${alike} (${vendorName(edge)} in front of the site)` } : { party: 'origin', evidence: `error ${code} from the site's address${alike}` };
  }
  const status = `HTTP ${cell.status}`;
  const own = platformByHeaders(cell.headers);
  if (own) return withSign({ party: 'platform', vendor: own.platform.id, evidence: `${status} with ${own.evidence}` });
  const marker = decisiveMarker(cell);
  if (marker) return withSign({ party: 'edge', vendor: marker.vendor, evidence: `${status}, ${vendorName(marker.vendor)}: ${marker.marker}` });
  const fronting = control.ok ? platformByHeaders(control.headers) : undefined;
  if (fronting) return withSign({ party: 'platform', vendor: fronting.platform.id, evidence: `${status} without a marker of its own; ${fronting.evidence} on the browser's answer from the same network` });
  const passedThrough = cell.record.vendors.map(vendorName);
  return withSign({ party: 'origin', evidence: `${status} with no CDN, WAF or platform denial marker${passedThrough.length ? ` (passed through ${passedThrough.join(', ')})` : ''}` });
}

/** Sets `refusedBy` on every row with a denied or unmeasured cell. */
export function attachParties(ev: ScanEvidence): void {
  const siteVendors = [...new Set(NETWORKS.flatMap((n) => ev.controls[n].record.vendors))];
  for (const r of ev.rows) {
    const cells = ev.cells[r.agent.token];
    if (!cells) continue;
    const by: Partial<Record<NetworkName, RefusingParty>> = {};
    for (const n of NETWORKS) {
      const p = partyOf(cells[n], ev.controls[n], siteVendors);
      if (p) by[n] = p;
    }
    if (Object.keys(by).length) r.entry.refusedBy = by;
  }
}

const platformName = (id?: string) => REFUSING_PLATFORMS.find((p) => p.id === id)?.name ?? id ?? '';

/**
 * "refused by the Shopify platform's bot rules, not by your site" and its siblings; for a cell that
 * was not a denial (a 5xx, a reset) who answered, without the word "refused".
 */
export function partyWords(p: RefusingParty, denied = true): string {
  if (!denied && p.party !== 'network') {
    const who = p.party === 'platform' ? `the ${platformName(p.vendor)} platform` : p.party === 'edge' ? `the site's edge (${vendorName(p.vendor ?? '')})` : 'the site\'s own server';
    return `not measured: the answer came from ${who}`;
  }
  switch (p.party) {
    case 'platform': return `refused by the ${platformName(p.vendor)} platform's bot rules, not by your site`;
    case 'edge': return `refused by the site's edge (${vendorName(p.vendor ?? '')})`;
    case 'origin': return 'refused by the site\'s own server';
    default: return 'not measured: our own network failed, which is never counted against the site';
  }
}

function list(items: readonly string[], max = 6): string {
  if (items.length <= 1) return items.join('');
  if (items.length > max) return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** One reason per party pattern among the scored agents' denials and our own failures. */
export function partyReasons(rows: readonly AgentRow[], signing: boolean): string[] {
  const groups = new Map<string, { p: RefusingParty; agents: string[]; nets: Set<string> }>();
  const signs = new Set<string>();
  for (const r of rows) {
    if (r.agent.tokenOnly || r.agent.contextOnly) continue;
    for (const n of NETWORKS) {
      const p = r.entry.refusedBy?.[n];
      if (!p) continue;
      // Only refusals on decided cells, and our own network's failures, make a sentence.
      if (p.party !== 'network' && !r.denied.includes(n)) continue;
      if (p.asksToSign) signs.add(p.asksToSign);
      const k = `${p.party}|${p.vendor ?? ''}`;
      const g = groups.get(k) ?? { p, agents: [], nets: new Set<string>() };
      if (!g.agents.includes(r.agent.token)) g.agents.push(r.agent.token);
      g.nets.add(n);
      groups.set(k, g);
    }
  }
  const out: string[] = [];
  for (const { p, agents, nets } of groups.values()) {
    const where = list([...nets].sort());
    if (p.party === 'network') {
      out.push(`Requests identifying as ${list(agents)} could not be measured from ${where}: our own egress failed (${p.evidence}). This is a limit of the measurement and is never counted against the site.`);
      continue;
    }
    const platform = p.party === 'platform' ? REFUSING_PLATFORMS.find((x) => x.id === p.vendor) : undefined;
    const ask = platform ? (platform.fix ? ` ${platform.name}'s setting: ${platform.fix.setting} (${platform.fix.docUrl}).` : ` ${platform.name} documents no owner setting for these rules: ask ${platform.name} support (${platform.support}).`) : '';
    out.push(`Requests identifying as ${list(agents)} from ${where} were ${partyWords(p)} (evidence: ${p.evidence}).${ask}`);
  }
  if (signs.size) {
    out.push(`The refusals carry Accept-Signature (${[...signs][0]}): the edge asks agents to sign their requests (Web Bot Auth)${signing ? '' : '; this scan\'s own requests were not signed'}.`);
  }
  return out;
}

/** The access check a refused agent's role counts in (checks/access.*). */
const CHECK_OF_INTENT: Record<string, string> = { 'user-fetch': 'access.user-agents', search: 'access.search-agents', training: 'access.training-consistency', archive: 'access.training-consistency' };

/** A platform fix per platform and check for the scored agents a platform refused: its documented setting, or its support. */
export function platformRefusalFixes(rows: readonly AgentRow[]): PlatformFix[] {
  const seen = new Map<string, { id: string; checkId: string; agents: string[] }>();
  for (const r of rows) {
    if (r.agent.tokenOnly || r.agent.contextOnly) continue;
    for (const n of r.denied) {
      const p = r.entry.refusedBy?.[n];
      if (p?.party !== 'platform' || !p.vendor) continue;
      const checkId = CHECK_OF_INTENT[r.agent.intent] ?? 'access.user-agents';
      const g = seen.get(`${p.vendor}|${checkId}`) ?? { id: p.vendor, checkId, agents: [] };
      if (!g.agents.includes(r.agent.token)) g.agents.push(r.agent.token);
      seen.set(`${p.vendor}|${checkId}`, g);
    }
  }
  const out: PlatformFix[] = [];
  for (const { id, checkId, agents } of seen.values()) {
    const platform = REFUSING_PLATFORMS.find((x) => x.id === id)!;
    const who = list(agents);
    out.push(platform.fix
      ? { checkId, platform: id, platformName: platform.name, setting: platform.fix.setting, text: `${platform.name} refused ${who}. ${platform.fix.text}`, docUrl: platform.fix.docUrl }
      : { checkId, platform: id, platformName: platform.name, setting: `${platform.name} support`, text: `${platform.name}'s own bot rules refused ${who} before your site answered, and ${platform.name} documents no setting for them: ask ${platform.name} support to let these agents through.`, docUrl: platform.support });
  }
  return out;
}

/** The party behind each refusal and who pays what; nothing to say when the headline is unknown. */
export function refusalReasons(rows: readonly AgentRow[], verdict: { headline: string; reasons: readonly string[] }, signing: boolean): string[] {
  // The signed-traffic comparison already names an Accept-Signature it saw: said once.
  const signNamed = verdict.reasons.some((r) => r.includes('Accept-Signature'));
  const out = partyReasons(rows, signing).filter((r) => !(signNamed && r.startsWith('The refusals carry Accept-Signature')));
  const price = priceReason(rows);
  if (price) out.push(price);
  return verdict.headline === 'unknown' ? out.filter((r) => r.includes('our own egress')) : out;
}

/**
 * When a SaaS platform's own rules refused the agents, an edge setting of the CDN that platform
 * runs on is not the owner's to change: the access fixes are the platform's (its setting or its
 * support), and the other fixes stay.
 */
export function withPlatformRefusals(fixes: PlatformFix[], refusals: PlatformFix[]): PlatformFix[] {
  if (refusals.length === 0) return fixes;
  const refusing = new Set(refusals.map((f) => f.platform));
  return [...fixes.filter((f) => !f.checkId.startsWith('access.') || refusing.has(f.platform)), ...refusals];
}
