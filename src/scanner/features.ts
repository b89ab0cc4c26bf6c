/**
 * Derived facts shared by several checks, the profile detector and the
 * `contradictory` headline rule. Pure functions of the evidence.
 */
import { parseJson, type FileState, type ScanEvidence } from './evidence.ts';
import { judgeFile } from './file-judge.ts';

/** One link of an llms.txt: its target, its [title] and the rest of its line (the note after it). */
export interface LlmsLink { href: string; title: string; note: string }

export interface LlmsTxt {
  state: FileState | 'unstructured';
  path: string;
  links: string[];
  /** The same links with their titles and notes, in file order. */
  entries: LlmsLink[];
  chars: number;
  /** Why the file counts as absent when the site answered something else ("the site answered with an HTML page"). */
  note: string;
}

/** llms.txt per llmstxt.org: a text file (no HTML page, no "not found" message; file-judge.ts) whose first line is an H1. */
export function llmsTxt(ev: ScanEvidence, path = '/llms.txt'): LlmsTxt {
  const v = ev.files[path];
  const j = judgeFile(v);
  if (j.state !== 'present' || !v) return { state: j.state, path, links: [], entries: [], chars: 0, note: j.note };
  const firstLine = v.body.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const entries = [...v.body.matchAll(/\[([^\]]*)\]\(([^)\s]+)\)/g)].map((m) => {
    const end = m.index + m[0].length;
    const eol = v.body.indexOf('\n', end);
    return { href: m[2]!, title: m[1]!, note: v.body.slice(end, eol === -1 ? undefined : eol).trim() };
  });
  return { state: /^#\s+\S/.test(firstLine) ? 'present' : 'unstructured', path, links: entries.map((e) => e.href), entries, chars: v.body.length, note: '' };
}

/** Same-site absolute URLs of the llms.txt links, sorted, first `n` (deterministic sample). */
export function sampleLinks(ev: ScanEvidence, links: readonly string[], n: number): string[] {
  const base = `https://${ev.domain}/`;
  const out = new Set<string>();
  for (const l of links) {
    try {
      const u = new URL(l, base);
      if (u.hostname === ev.domain && u.protocol === 'https:') out.add(u.href);
    } catch { /* not a URL: skip */ }
  }
  return [...out].sort().slice(0, n);
}

/** URLs advertised with rel=service-desc (Link header, HTML, or the api-catalog linkset). */
export function serviceDescUrls(ev: ScanEvidence): string[] {
  const urls = ev.homeLinks.filter((l) => l.rel.includes('service-desc')).map((l) => l.href);
  const catalog = parseJson(ev.files['/.well-known/api-catalog']) as { linkset?: Array<Record<string, unknown>> } | undefined;
  for (const entry of catalog?.linkset ?? []) {
    const sd = entry['service-desc'];
    if (Array.isArray(sd)) for (const t of sd) if (t && typeof (t as { href?: unknown }).href === 'string') urls.push((t as { href: string }).href);
  }
  const base = `https://${ev.domain}/`;
  return [...new Set(urls.map((u) => { try { return new URL(u, base).href; } catch { return ''; } }).filter(Boolean))].sort();
}

export function isOpenApi(doc: unknown): boolean {
  const d = doc as { openapi?: unknown; paths?: unknown; info?: unknown } | undefined;
  return typeof d?.openapi === 'string' && /^3\./.test(d.openapi) && typeof d.info === 'object';
}

/** An MCP server card / manifest: JSON with a name and some transport URL. */
export function mcpManifest(ev: ScanEvidence): { path: string } | null {
  for (const path of ['/.well-known/mcp/server-card.json', '/.well-known/mcp.json']) {
    const doc = parseJson(ev.files[path]) as Record<string, unknown> | undefined;
    if (doc && typeof doc.name === 'string' && (doc.url || doc.endpoint || doc.remotes || doc.transport || doc.serverInfo)) return { path };
  }
  return null;
}

/** Content-Signal values, from robots.txt lines and the home page header. */
export function contentSignals(ev: ScanEvidence): Array<{ source: string; value: string }> {
  const out = ev.robots.extensions.filter((e) => e.field === 'content-signal').map((e) => ({ source: `robots.txt line ${e.line}`, value: e.value }));
  const header = ev.home?.headers['content-signal'];
  if (header) out.push({ source: 'Content-Signal header', value: header });
  return out;
}

/** Content-Usage values (aipref), from robots.txt lines and the home page header. */
export function contentUsages(ev: ScanEvidence): Array<{ source: string; value: string }> {
  const out = ev.robots.extensions.filter((e) => e.field === 'content-usage').map((e) => ({ source: `robots.txt line ${e.line}`, value: e.value }));
  const header = ev.home?.headers['content-usage'];
  if (header) out.push({ source: 'Content-Usage header', value: header });
  return out;
}

export function signalGrants(value: string, key: string): boolean {
  return value.split(',').some((p) => {
    const [k, v] = p.split('=').map((s) => s.trim().toLowerCase());
    return k === key && (v === 'yes' || v === 'y');
  });
}

export interface Invitation { what: string; path: string }

/** Agent-facing invitations (verdicts.md, headline rule 2). */
export function invitations(ev: ScanEvidence): Invitation[] {
  const out: Invitation[] = [];
  for (const path of ['/llms.txt', '/llms-full.txt']) if (llmsTxt(ev, path).state === 'present') out.push({ what: path.slice(1), path });
  const mcp = mcpManifest(ev);
  if (mcp) out.push({ what: 'an MCP manifest', path: mcp.path });
  for (const url of serviceDescUrls(ev)) {
    const v = Object.values(ev.followups).find((f) => f.record.url === url) ?? Object.values(ev.files).find((f) => f.record.url === url);
    if (isOpenApi(parseJson(v))) {
      out.push({ what: 'an OpenAPI description', path: new URL(url).pathname });
      break;
    }
  }
  for (const s of contentSignals(ev)) {
    if (signalGrants(s.value, 'search') || signalGrants(s.value, 'ai-input')) {
      out.push({ what: `a Content-Signal granting ${signalGrants(s.value, 'ai-input') ? 'ai-input' : 'search'} (${s.source})`, path: '/' });
      break;
    }
  }
  return out;
}
