// Standard: agent discovery in DNS (shared/research/discovery-2026-12.md §2): DNS-AID `_agents` SVCB,
// AID `_agent`, ANS v2 `_ans`, x402 `_x402` and MCP `_mcp` TXT, looked up by DNS over HTTPS (RFC 8484).
import { fileState, parseJson } from '../evidence.ts';
import type { ScanEvidence } from '../evidence.ts';
import { readRecord, type ReadRecord } from '../dns-records.ts';
import { LEGACY_CARD_PATHS, MCP_CATALOG_PATH, mcpDiscovery } from '../mcp-discovery.ts';
import { ALL, fail, inconclusive, matched, pass, type CheckDefinition } from './define.ts';

const A2A_CARD = '/.well-known/agent-card.json';
const MAX_RECORDS = 5;
const short = (t: string) => (t.length > 200 ? `${t.slice(0, 200)}…` : t);
const MCP_FILES = [MCP_CATALOG_PATH, ...LEGACY_CARD_PATHS] as const;

/** A URL as compared: parsed, without a trailing slash; a host-only (SVCB) endpoint compares by origin. */
function norm(url: string): string {
  try {
    return new URL(url).href.replace(/\/$/, '');
  } catch {
    return url;
  }
}

function absolute(ev: ScanEvidence, v: unknown): string | undefined {
  if (typeof v !== 'string' || !v) return undefined;
  try {
    return new URL(v, `https://${ev.domain}/`).href;
  } catch {
    return undefined;
  }
}

/** Endpoints the well-known files list, per protocol; undefined when no file of that protocol is there. */
export function fileEndpoints(ev: ScanEvidence): Record<'a2a' | 'mcp', { file: string; urls: string[] } | undefined> {
  const out: Record<'a2a' | 'mcp', { file: string; urls: string[] } | undefined> = { a2a: undefined, mcp: undefined };
  const card = parseJson(ev.files[A2A_CARD]) as Record<string, unknown> | undefined;
  if (card && typeof card === 'object' && !Array.isArray(card)) {
    const ifaces = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces as Array<Record<string, unknown> | null> : [];
    const urls = [...ifaces.map((i) => absolute(ev, i?.url)), absolute(ev, card.url)].filter((u): u is string => !!u);
    out.a2a = { file: A2A_CARD, urls };
  }
  // MCP: every card found the way the current draft says (the catalog, issue 37 item 1) and on the legacy paths.
  const mcp = mcpDiscovery(ev);
  const cards = [...mcp.current, ...mcp.legacy];
  if (cards.length) {
    const urls = cards.flatMap(({ where, card }) => {
      const remotes = Array.isArray(card.remotes) ? card.remotes as Array<Record<string, unknown> | null> : [];
      const transport = card.transport as Record<string, unknown> | undefined;
      // A card at `<endpoint>/server-card` (the draft's reserved default) names its endpoint by where it is.
      const byPlace = /^https:\/\/.+\/server-card$/.test(where) ? where.slice(0, -'/server-card'.length) : undefined;
      return [...remotes.map((r) => absolute(ev, r?.url)), absolute(ev, transport?.endpoint), byPlace];
    }).filter((u): u is string => !!u);
    out.mcp = { file: [...new Set(cards.map((c) => c.where))].join(' and '), urls };
  }
  return out;
}

/** Disagreements between what DNS advertises and what the files list, for A2A and MCP. */
export function conflicts(ev: ScanEvidence, found: readonly ReadRecord[]): { conflicts: string[]; notes: string[] } {
  const files = fileEndpoints(ev);
  const out: string[] = [];
  const notes: string[] = [];
  for (const proto of ['a2a', 'mcp'] as const) {
    const inDns = found.filter((r) => r.protocol === proto && r.endpoint && !r.problem);
    if (inDns.length === 0) continue;
    const listed = files[proto];
    const name = proto === 'a2a' ? 'A2A' : 'MCP';
    if (!listed) {
      notes.push(`no well-known ${name} card to compare ${inDns.map((r) => r.kind).join(', ')} with`);
      continue;
    }
    const fileUrls = listed.urls.map(norm);
    const matches = (r: ReadRecord, u: string) => (r.kind === '_agents' ? new URL(u).origin === norm(r.endpoint!) : norm(r.endpoint!) === u);
    for (const r of inDns) if (!fileUrls.some((u) => matches(r, u))) out.push(`${r.kind} advertises the ${name} endpoint ${r.endpoint!.slice(0, 200)}, which ${listed.file} does not list`);
    for (const u of fileUrls.slice(0, 10)) if (!inDns.some((r) => matches(r, u))) out.push(`${listed.file} lists the ${name} endpoint ${u.slice(0, 200)}, which no ${name} record in DNS advertises`);
  }
  return { conflicts: out, notes };
}

export const check: CheckDefinition = {
  id: 'discovery.dns-records', name: 'Agent discovery records in DNS agree with the well-known files', category: 'discovery', weight: 1, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'DNS-AID (draft-mozleywilliams-dnsop-dnsaid-00), AID v2, ANS v2 (draft-narajala-courtney-ansv2-00), x402 DNS (draft-jeftovic-x402-dns-discovery-00), MCP DNS (draft-morrison-mcp-dns-discovery-01), read by DNS over HTTPS (RFC 8484)',
  why: 'Agents now find endpoints in DNS as well as in well-known files; a record that points elsewhere than the card (or a card endpoint DNS does not name) sends an agent to the wrong place, and a malformed record is ignored by clients.',
  fix: 'Publish each record in the syntax of its draft (AID: v=aid2;u=<https URL>;p=<protocol>; ANS: v=ans1; p=<protocol>; url=<https URL>) and list the same A2A and MCP endpoints in DNS as in /.well-known/agent-card.json and the MCP server card.',
  evaluate(ev) {
    const dns = ev.dns;
    if (!dns) return inconclusive('DNS records were not looked up (no DNS over HTTPS resolver configured)');
    const found: ReadRecord[] = [];
    const states: string[] = [];
    const failed: string[] = [];
    for (const l of dns.lookups) {
      const a = l.answer;
      // A zone is the site's to fill: at most MAX_RECORDS per name are read, and each is shown cut short.
      if (a.state === 'found') for (const r of a.records.slice(0, MAX_RECORDS)) found.push(readRecord(l.kind, ev.domain, r));
      else if (a.state === 'failed') failed.push(`${l.kind.label} ${l.kind.type} (${a.reason})`);
      else states.push(`${l.kind.label} ${a.state === 'nxdomain' ? 'NXDOMAIN' : 'no record (NODATA)'}`);
    }
    const failedNote = failed.length ? `; lookup failed, so not known: ${failed.join(', ')}` : '';
    if (found.length === 0) {
      if (failed.length) return inconclusive(`DNS lookups through ${dns.resolver} failed: ${failed.join(', ')}${states.length ? `; ${states.join(', ')}` : ''}`);
      return inconclusive(`no agent discovery records in DNS (${states.join(', ')}): not applicable`);
    }
    const describe = (r: ReadRecord) => `${r.kind} ${short(r.generation)}${r.protocol ? ` ${short(r.protocol)}` : ''}${r.endpoint ? ` -> ${short(r.endpoint)}` : ''}${r.problem ? ` (${r.problem})` : ''}`;
    const generation = short([...new Set(found.map((r) => r.generation))].join('; '));
    const { conflicts: disagree, notes } = conflicts(ev, found);
    const rest = `${states.length ? `; ${states.join(', ')}` : ''}${notes.length ? `; ${notes.join('; ')}` : ''}${failedNote}`;
    const malformed = found.filter((r) => r.problem);
    if (disagree.length || malformed.length) return matched(generation, fail(`${[...disagree, ...malformed.map((r) => `${r.kind} cannot be used: ${r.problem}`)].join('; ')}. Found: ${found.map(describe).join('; ')}${rest}`));
    // A file that could not be read leaves the comparison open, never a pass it did not earn.
    const unread = [A2A_CARD, ...MCP_FILES].filter((p) => fileState(ev.files[p]) === 'unknown');
    return matched(generation, pass(`${found.map(describe).join('; ')}${rest}${unread.length ? `; not compared with ${unread.join(', ')} (could not be fetched)` : ''}`));
  },
};
