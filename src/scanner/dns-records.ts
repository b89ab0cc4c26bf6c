/**
 * The DNS discovery records a scan looks up (shared/research/discovery-2026-12.md §2), and what
 * each record says: its draft and generation, the protocol it advertises and where it points.
 * Pure. Record syntaxes past the ones read in full are parsed tolerantly (a URL, or `key=value`
 * pairs separated by `;` or spaces holding one), as the research note asks.
 */
import type { DohRecord, DohType } from '../net/doh.ts';

export interface DnsRecordKind {
  /** The label prepended to the domain. */
  label: '_agents' | '_agent' | '_ans' | '_x402' | '_mcp';
  type: DohType;
  /** The specification that defines the record, as named in the detail. */
  source: string;
}

/** In lookup (and report) order. */
export const DNS_RECORD_KINDS: readonly DnsRecordKind[] = [
  { label: '_agents', type: 'SVCB', source: 'DNS-AID (draft-mozleywilliams-dnsop-dnsaid-00)' },
  { label: '_agent', type: 'TXT', source: 'AID (aid.agentcommunity.org v2.0.0; draft-nemethi-aid-agent-identity-discovery-00)' },
  { label: '_ans', type: 'TXT', source: 'ANS v2 (draft-narajala-courtney-ansv2-00)' },
  { label: '_x402', type: 'TXT', source: 'x402 DNS discovery (draft-jeftovic-x402-dns-discovery-00)' },
  { label: '_mcp', type: 'TXT', source: 'MCP DNS discovery (draft-morrison-mcp-dns-discovery-01)' },
];

/** One record read: its generation, the protocol it names (lower case) and the endpoint it points to. */
export interface ReadRecord {
  kind: DnsRecordKind['label'];
  generation: string;
  protocol?: string;
  /** An endpoint URL, or for SVCB `https://<host>[:port]` (a host, no path). */
  endpoint?: string;
  /** What is wrong with it, if it cannot be used. */
  problem?: string;
  /** The record as published (TXT text, or SVCB in presentation form). */
  raw: string;
}

/** `k=v` pairs split on `;` (AID, ANS) or whitespace, keys lower-cased; a bare URL is kept as `url`. */
function pairs(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(/[;\s]+/)) {
    const p = part.trim();
    if (!p) continue;
    const eq = p.indexOf('=');
    if (eq > 0) out.set(p.slice(0, eq).toLowerCase(), p.slice(eq + 1));
    else if (/^https:\/\//i.test(p) && !out.has('url')) out.set('url', p);
  }
  return out;
}

function httpsUrl(v: string | undefined): string | undefined {
  if (!v) return undefined;
  try {
    const u = new URL(v);
    return u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}

function svcbText(r: Extract<DohRecord, { type: 'SVCB' }>): string {
  return [String(r.priority), r.target, ...Object.entries(r.params).map(([k, v]) => (v === '' ? k : `${k}=${v}`))].join(' ');
}

/** What one answer record says, read as its kind defines it. */
export function readRecord(kind: DnsRecordKind, domain: string, record: DohRecord): ReadRecord {
  if (record.type === 'SVCB') {
    const raw = svcbText(record);
    if (record.priority === 0) return { kind: kind.label, generation: 'DNS-AID -00 (SVCB AliasMode)', endpoint: undefined, raw, problem: record.target === '.' ? 'AliasMode with an empty TargetName' : undefined, protocol: undefined };
    const host = record.target === '.' ? `_agents.${domain}` : record.target.replace(/\.$/, '');
    const port = record.params.port && record.params.port !== '443' ? `:${record.params.port}` : '';
    // DNS-AID -00 names no protocol key; an alpn of a2a or mcp is the only protocol signal read.
    const protocol = (record.params.alpn ?? '').split(',').find((a) => a === 'a2a' || a === 'mcp');
    return { kind: kind.label, generation: 'DNS-AID -00 (SVCB ServiceMode)', endpoint: `https://${host}${port}`, raw, ...(protocol ? { protocol } : {}) };
  }
  const raw = record.text;
  const kv = pairs(raw);
  const v = kv.get('v');
  switch (kind.label) {
    case '_agent': {
      const gen = v === 'aid2' ? 'AID v2 (v=aid2)' : v === 'aid1' ? 'AID v1 (v=aid1, legacy)' : `AID (unknown version ${v ?? 'none'})`;
      const endpoint = httpsUrl(kv.get('u') ?? kv.get('uri'));
      const protocol = (kv.get('p') ?? kv.get('proto'))?.toLowerCase();
      const problem = v !== 'aid1' && v !== 'aid2' ? 'the record does not start with v=aid1 or v=aid2' : !endpoint ? 'no https endpoint (u= or uri=)' : undefined;
      return { kind: kind.label, generation: gen, raw, ...(endpoint ? { endpoint } : {}), ...(protocol ? { protocol } : {}), ...(problem ? { problem } : {}) };
    }
    case '_ans': {
      const endpoint = httpsUrl(kv.get('url'));
      const protocol = kv.get('p')?.toLowerCase();
      const problem = v !== 'ans1' ? 'the record does not carry v=ans1' : !endpoint ? 'no https url=' : undefined;
      return { kind: kind.label, generation: `ANS v2 (v=${v ?? 'none'}${kv.get('version') ? `, version ${kv.get('version')}` : ''})`, raw, ...(endpoint ? { endpoint } : {}), ...(protocol ? { protocol } : {}), ...(problem ? { problem } : {}) };
    }
    case '_x402': {
      const endpoint = httpsUrl(kv.get('url') ?? kv.get('u'));
      return { kind: kind.label, generation: 'x402 DNS (-00 TXT URL)', protocol: 'x402', raw, ...(endpoint ? { endpoint } : { problem: 'no https URL where the resource manifest can be fetched' }) };
    }
    case '_mcp': {
      const endpoint = httpsUrl(kv.get('url') ?? kv.get('u') ?? kv.get('endpoint') ?? kv.get('uri'));
      return { kind: kind.label, generation: `MCP DNS -01${v ? ` (v=${v})` : ''}`, protocol: 'mcp', raw, ...(endpoint ? { endpoint } : { problem: 'no https endpoint URL' }) };
    }
    default:
      return { kind: kind.label, generation: kind.source, raw, problem: `a TXT record where ${kind.type} was asked` };
  }
}
