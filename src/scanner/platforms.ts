/**
 * Which platforms served the page, and each platform's concrete fix for the checks that cost
 * points. Attribution reads the evidence the scan already holds: the fingerprint markers on the
 * home page and on the agents' answers (edges and hosts), the home page's `server` header
 * (origin web servers) and WordPress's own traces in the page. The fixes come from the one table
 * in data/platforms/; nothing here changes a verdict or a score.
 */
import type { components } from '../../generated/api-types.ts';
import { PLATFORMS, SEO_PLUGINS, type FixContext, type PlatformEntry, type PluginEntry } from './data/platforms/index.ts';
import { judgeFile } from './file-judge.ts';
import type { ScanEvidence } from './evidence.ts';
import { matchFingerprints } from './fingerprints.ts';
import { managedSetting } from './robots-managed.ts';
import { managedFinding } from './robots-report.ts';
import type { AgentRow } from './matrix.ts';
import { NETWORKS, type CheckResult, type FetchedView } from './types.ts';

export type PlatformAttribution = components['schemas']['PlatformAttribution'];
export type PlatformFix = components['schemas']['PlatformFix'];

/** The first marker of each vendor on one answer (presence, challenge, deny or rate limit). */
function vendorMarkers(view: FetchedView): Map<string, string> {
  const m = matchFingerprints({ status: view.status, headers: view.headers, setCookieNames: view.record.setCookieNames, body: view.body, bodyBytes: view.record.bodyBytes });
  const out = new Map<string, string>();
  for (const hit of [...m.challenge, ...m.deny, ...m.rateLimit, ...m.presence]) if (!out.has(hit.vendor)) out.set(hit.vendor, hit.marker);
  return out;
}

const WORDPRESS = [/\/wp-content\//i, /\/wp-includes\//i, /<meta[^>]+name=["']generator["'][^>]+content=["']WordPress/i];

export function attributePlatforms(ev: ScanEvidence): PlatformAttribution[] {
  const page = ev.home ?? ev.controls.networkA;
  const seen = new Map<string, string>();
  for (const [vendor, marker] of vendorMarkers(page)) seen.set(vendor, `${marker} on the home page`);
  // An edge that lets browsers through may show itself only on the answers it gave the agents.
  for (const row of ev.rows) {
    const cells = ev.cells[row.agent.token];
    if (!cells) continue;
    for (const n of NETWORKS) {
      for (const vendor of cells[n].record.vendors) {
        if (seen.has(vendor)) continue;
        const marker = cells[n].record.markers.find((m) => m.startsWith(`${vendor}: `))?.slice(vendor.length + 2);
        seen.set(vendor, `${marker ?? 'its markers'} on the answer to ${row.agent.token} (${n})`);
      }
    }
  }
  const out: PlatformAttribution[] = [];
  const server = page.headers['server'] ?? '';
  // An edge's managed robots.txt block names its vendor by its documented marker lines.
  const managed = ev.robotsTxt ? managedFinding(ev.robotsTxt, ev.roster) : null;
  const plugins = new Map(pluginMarkers(ev).map((m) => [m.plugin.id, m.evidence]));
  for (const p of PLATFORMS) {
    const plugin = plugins.get(p.id);
    if (plugin) { out.push({ id: p.id, name: p.name, role: p.role, evidence: plugin }); continue; }
    const vendor = p.vendors?.find((v) => seen.has(v));
    if (vendor) out.push({ id: p.id, name: p.name, role: p.role, evidence: seen.get(vendor)! });
    else if (managed?.block.vendor === p.id) out.push({ id: p.id, name: p.name, role: p.role, evidence: `its managed robots.txt block (line ${managed.block.beginLine}: "${managed.copy.file.lines[managed.block.beginLine - 1]!.trim()}")` });
    else if (p.server && ev.home && p.server.test(server)) out.push({ id: p.id, name: p.name, role: p.role, evidence: `header server: ${server} on the home page` });
    else if (p.id === 'wordpress' && ev.home) {
      const hit = WORDPRESS.find((re) => re.test(ev.home!.body)) ?? (ev.homeLinks.some((l) => l.rel.includes('https://api.w.org/')) ? /api\.w\.org/ : undefined);
      if (hit) out.push({ id: p.id, name: p.name, role: p.role, evidence: `WordPress markup on the home page (${hit.source.replace(/\\/g, '')})` });
    }
  }
  return out;
}

/** The plugins whose marker line is in the site's llms.txt or robots.txt, with the line that says so (first marker per plugin). */
export function pluginMarkers(ev: ScanEvidence): Array<{ plugin: PluginEntry; evidence: string }> {
  const llms = ev.files['/llms.txt'];
  const texts: Record<'llms.txt' | 'robots.txt', string[]> = {
    'llms.txt': llms && judgeFile(llms).state === 'present' ? llms.body.split(/\r?\n/).slice(0, 200) : [],
    'robots.txt': ev.robots.state === 'parsed' ? ev.robots.lines.slice(0, 2000) : [],
  };
  const out: Array<{ plugin: PluginEntry; evidence: string }> = [];
  for (const plugin of SEO_PLUGINS) {
    for (const m of plugin.markers) {
      const i = texts[m.file].findIndex((l) => m.line.test(l.trim()));
      if (i < 0) continue;
      const line = texts[m.file][i]!.trim();
      out.push({ plugin, evidence: `its marker in /${m.file} (line ${i + 1}: "${line.length > 120 ? `${line.slice(0, 120)}…` : line}")` });
      break;
    }
  }
  return out;
}

/** A check costs points: decided, weighted and short of full credit (as "Fix first" counts it). */
function costsPoints(c: CheckResult): boolean {
  if (c.weight <= 0) return false;
  if (c.status === 'fail') return true;
  return c.status === 'pass' && c.credit !== undefined && c.credit < 1;
}

const scored = (r: AgentRow) => !r.agent.tokenOnly && !r.agent.contextOnly;
const tokensOf = (rows: readonly AgentRow[]) => rows.map((r) => r.agent.token);

/** The agents a failing check is about, so the fix can name them; the role's probeable agents when none stands out. */
export function agentsFor(checkId: string, ev: ScanEvidence): string[] {
  const ofIntent = (intents: readonly string[]) => ev.rows.filter((r) => scored(r) && intents.includes(r.agent.intent));
  const denied = (intents: readonly string[]) => ofIntent(intents).filter((r) => r.denied.length > 0 && r.robots.says !== 'blocked');
  const pick = (rows: AgentRow[], fallback: readonly string[]) => (rows.length ? tokensOf(rows) : tokensOf(ofIntent(fallback)));
  switch (checkId) {
    case 'access.user-agents': return pick(denied(['user-fetch']), ['user-fetch']);
    case 'access.search-agents': return pick(denied(['search']), ['search']);
    case 'access.training-consistency': return pick(denied(['training', 'archive']), ['training']);
    case 'access.no-agent-rate-limit': return pick(ev.rows.filter((r) => scored(r) && NETWORKS.some((n) => ev.cells[r.agent.token]?.[n].outcome === 'rate-limited')), ['user-fetch']);
    case 'policy.search-user-allowed': return pick(ofIntent(['user-fetch', 'search']).filter((r) => r.robots.says === 'blocked'), ['user-fetch', 'search']);
    case 'policy.training-preference': return tokensOf(ofIntent(['training']).slice(0, 4));
    case 'policy.ai-rules-explicit': return ['user-fetch', 'search', 'training'].flatMap((i) => tokensOf(ofIntent([i]).slice(0, 1)));
    default: return [];
  }
}

export function platformFixes(ev: ScanEvidence, checks: readonly CheckResult[], platforms: readonly PlatformAttribution[]): PlatformFix[] {
  return [...fixesFromTable(checks, platforms, (id) => agentsFor(id, ev)), ...managedRobotsFixes(ev, checks)];
}

/** Checks whose failing agents are exactly those robots.txt disallows: when a managed block disallows them, its setting is the fix. */
const ROBOTS_VERDICT_CHECKS = new Set(['policy.search-user-allowed']);

/** The vendor's managed robots.txt setting, for a check that costs points because of lines the vendor added. */
function managedRobotsFixes(ev: ScanEvidence, checks: readonly CheckResult[]): PlatformFix[] {
  const found = ev.robotsTxt ? managedFinding(ev.robotsTxt, ev.roster) : null;
  const setting = found ? managedSetting(found.block.vendor) : undefined;
  if (!found || !setting) return [];
  const out: PlatformFix[] = [];
  for (const c of checks) {
    if (!ROBOTS_VERDICT_CHECKS.has(c.id) || !costsPoints(c)) continue;
    const agents = agentsFor(c.id, ev).filter((t) => found.agents.includes(t));
    if (agents.length) out.push({ checkId: c.id, platform: found.block.vendor, platformName: setting.name, setting: setting.setting, text: setting.fix(agents), docUrl: setting.docUrl });
  }
  return out;
}

/** The table's fixes for the checks that cost points, per attributed platform (edges first, as attributed). */
export function fixesFromTable(checks: readonly CheckResult[], platforms: readonly PlatformAttribution[], agents: (checkId: string) => readonly string[]): PlatformFix[] {
  const entries = platforms.map((a) => PLATFORMS.find((p) => p.id === a.id)).filter((p): p is PlatformEntry => p !== undefined);
  const out: PlatformFix[] = [];
  for (const c of checks) {
    if (!costsPoints(c)) continue;
    const ctx: FixContext = { agents: agents(c.id) };
    for (const p of entries) {
      const build = p.fixes[c.id];
      if (!build) continue;
      const f = build(ctx);
      out.push({ checkId: c.id, platform: p.id, platformName: p.name, setting: f.setting, text: f.text, docUrl: f.docUrl, ...(f.snippet ? { snippet: f.snippet } : {}) });
    }
  }
  return out;
}
