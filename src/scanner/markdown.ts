/**
 * Markdown the way each agent asks for it (pure, from evidence): which agents ask for Markdown
 * in their own Accept (roster agents and the products sharing a token, e.g. Claude Code as
 * Claude-User), what each received, whether the page's Markdown alternate resolves for the
 * product that follows it (Codex CLI), and whether answers that depend on Accept say so in Vary.
 * The preview rubric's content.markdown-negotiation and the matrix notes both read this.
 */
import { DENIALS } from './classify.ts';
import type { ScanEvidence } from './evidence.ts';
import { agentHeaders, headerValue, productArrivals, type ProductArrival } from './roster.ts';
import type { FetchedView } from './types.ts';

/** What an answer was, as an agent reading it would see it. */
export type Received = 'markdown' | 'markdown-as-text' | 'html' | 'other' | 'denied' | 'unknown';

export interface MarkdownArrival {
  /** The product id, or the roster token for a roster agent. */
  id: string;
  /** "Claude Code (as Claude-User)", "Cursor", "GPTBot". */
  label: string;
  /** The roster row this arrival belongs to, if any. */
  token: string | null;
  asks: 'accept' | 'alternate';
  /** The Accept it sent ('' = none). */
  accept: string;
  received: Received;
  contentType: string;
  /** The answer carried Vary: Accept (or *). */
  vary: boolean;
  /** For the alternate follower: the URL it followed. */
  url?: string;
  status: number;
}

/** Does this Accept ask for Markdown (text/markdown listed with a non-zero q)? */
export function asksForMarkdown(accept: string): boolean {
  return accept.split(',').some((range) => {
    const [type, ...params] = range.trim().toLowerCase().split(';').map((p) => p.trim());
    if (type !== 'text/markdown') return false;
    const q = params.find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export function variesOnAccept(v: FetchedView): boolean {
  return /(^|,)\s*(accept|\*)\s*(,|$)/i.test(v.headers['vary'] ?? v.record.headers['vary'] ?? '');
}

const looksHtml = (body: string) => /^\s*<(!doctype html|html|head|body)[\s>]/i.test(body.slice(0, 300));

/** What an answer was. Grid answers keep no body, so their type decides. */
export function received(v: FetchedView): Received {
  if (!v.ok || v.outcome === 'transport-error' || v.outcome === 'unprobed') return 'unknown';
  if (DENIALS.has(v.outcome)) return 'denied';
  if (v.status >= 500) return 'unknown';
  if (v.status < 200 || v.status >= 300) return 'other';
  const type = (v.contentType || v.record.headers['content-type'] || '').toLowerCase();
  if (/html/.test(type) || looksHtml(v.body)) return 'html';
  if (/^text\/(x-)?markdown/.test(type)) return 'markdown';
  if (type.startsWith('text/plain') && /^\s*#{1,6}\s/.test(v.body)) return 'markdown-as-text';
  return 'other';
}

/** The page's `rel="alternate" type="text/markdown"` (a Link header or a <link>), resolved against the page. */
export function markdownAlternate(ev: ScanEvidence): string | undefined {
  if (!ev.home) return undefined;
  const link = ev.homeLinks.find((l) => l.rel.includes('alternate') && l.type.toLowerCase().split(';')[0]!.trim() === 'text/markdown');
  if (!link) return undefined;
  try {
    return new URL(link.href, ev.home.record.finalUrl).href;
  } catch {
    return undefined;
  }
}

/** The product that follows the Markdown alternate (Codex CLI), if the roster has one. */
export function alternateFollower(): ProductArrival | undefined {
  return productArrivals().find((p) => p.asks === 'alternate');
}

function arrival(id: string, label: string, token: string | null, asks: MarkdownArrival['asks'], v: FetchedView): MarkdownArrival {
  const type = (v.contentType || v.record.headers['content-type'] || '').split(';')[0]!.trim();
  return { id, label, token, asks, accept: v.record.accept, received: received(v), contentType: type, vary: variesOnAccept(v), status: v.status };
}

/**
 * Every arrival that asks for Markdown, in roster order then product order: roster agents whose
 * own Accept asks for it (read from their grid answer on the first usable network), the products
 * that ask by Accept, and the alternate follower when the page offers an alternate.
 */
export function markdownArrivals(ev: ScanEvidence): MarkdownArrival[] {
  const out: MarkdownArrival[] = [];
  for (const a of ev.roster) {
    if (a.tokenOnly || a.ua === null || !asksForMarkdown(headerValue(agentHeaders(a), 'accept') ?? '')) continue;
    const cells = ev.cells[a.token];
    const v = cells && (ev.usable.map((n) => cells[n]).find(Boolean) ?? cells.networkA);
    if (v) out.push(arrival(a.token, a.token, a.token, 'accept', v));
  }
  for (const p of productArrivals()) {
    const label = p.token ? `${p.product} (as ${p.token})` : p.product;
    const v = p.asks === 'accept' ? ev.products[p.id] : ev.followups[`markdown:${p.id}`];
    if (!v) continue;
    const a = arrival(p.id, label, p.token, p.asks, v);
    if (p.asks === 'alternate') a.url = v.record.url;
    out.push(a);
  }
  return out;
}

const WORDS: Record<Received, string> = {
  markdown: 'Markdown', 'markdown-as-text': 'Markdown served as text/plain', html: 'HTML', other: 'neither Markdown nor HTML',
  denied: 'a denial', unknown: 'no readable answer',
};

/** One sentence per arrival, for check details and matrix notes. */
export function describeArrival(a: MarkdownArrival): string {
  const got = a.received === 'other' ? `${WORDS.other} (HTTP ${a.status}${a.contentType ? `, ${a.contentType}` : ''})` : WORDS[a.received];
  const vary = a.received === 'markdown' || a.received === 'markdown-as-text' ? (a.vary ? ', with Vary: Accept' : ', without Vary: Accept') : '';
  if (a.asks === 'alternate') return `${a.label} followed the page's Markdown alternate ${a.url ?? ''} and received ${got}`;
  return `${a.label} asked for Markdown (Accept: ${a.accept}) and received ${got}${vary}`;
}

const gotMarkdown = (r: Received) => r === 'markdown' || r === 'markdown-as-text';

/**
 * Per-agent Markdown notes for the matrix rows: every arrival that asks for Markdown notes what it
 * received on its token's row; when the site negotiates at all, every other probed agent's row
 * notes that it did not ask and what it received instead.
 */
export function markdownNotes(ev: ScanEvidence): Map<string, string[]> {
  const notes = new Map<string, string[]>();
  const add = (token: string, note: string) => notes.set(token, [...(notes.get(token) ?? []), note]);
  const arrivals = markdownArrivals(ev);
  const negotiates = arrivals.some((a) => a.asks === 'accept' && gotMarkdown(a.received)) || gotMarkdown(received(ev.markdown));
  const asking = new Set(arrivals.filter((a) => a.id === a.token).map((a) => a.token));
  if (negotiates) {
    for (const agent of ev.roster) {
      if (agent.tokenOnly || agent.ua === null || asking.has(agent.token)) continue;
      const cells = ev.cells[agent.token];
      const v = cells && (ev.usable.map((n) => cells[n]).find(Boolean) ?? cells.networkA);
      if (!v) continue;
      const r = received(v);
      add(agent.token, `Markdown: ${agent.token} does not ask for it (Accept: ${v.record.accept || 'none'}) and received ${r === 'other' ? `HTTP ${v.status}` : WORDS[r]}`);
    }
  }
  for (const a of arrivals) if (a.token) add(a.token, `Markdown: ${describeArrival(a)}`);
  return notes;
}
