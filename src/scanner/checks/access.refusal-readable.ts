// Standard: RFC 9110 §15.5 (401, 402, 403, 429 say "refused" and why in the status), RFC 9110 §10.2.3 (Retry-After), RFC 9457 (problem+json), RFC 8288 (Link relations).
// Issue 36 item 6: a refusal an agent can act on. Sources: OpenAgentsInc/openagents#4721 and getsentry/sentry-mcp#614 (a bare
// "error code: 1010" or an HTML "Attention Required!" page leaves an agent guessing); Cloudflare AI Crawl Control changelog
// 2025-08-27 (403 or 402 with a custom JSON body for blocked crawlers).
import { decodeOffer } from '../prices.ts';
import type { FetchedView } from '../types.ts';
import { ALL, inconclusive, matched, partial, type CheckDefinition } from './define.ts';

/** Statuses that tell an HTTP client "refused" in themselves. */
const HONEST = new Set([401, 402, 403, 429]);
const SMALL = 4096;
/** Words of a short text refusal that tell the reader what to do next. */
const ACTIONABLE = /\b(contact|e-?mail|licen[cs]e|licensing|permission|policy|terms|pay|payment|subscribe|sign(ed)? (your )?requests?|api|retry|try again|robots\.txt|https?:\/\/)/i;
/** A link to a policy or licensing page: Link relations, or an URL/anchor that names one. */
// Every quantifier that can run over site text is bounded, so no crafted refusal makes a match backtrack over the whole body.
const POLICY_REL = /rel="?[^";]{0,100}\b(license|terms-of-service|describedby|help|payment)\b/i;
const POLICY_WORDS = /(polic(y|ies)|licen[cs]|terms|permission|ai[-_ ]?(usage|access|crawl)|crawler|bots?\b)/i;

function linksPolicy(v: FetchedView): boolean {
  if (POLICY_REL.test(v.headers['link'] ?? '')) return true;
  const body = v.body.slice(0, 64 * 1024);
  // The tag first (one bounded run to its '>'), then its href inside it: no nested backtracking.
  for (const m of body.matchAll(/<a\b([^>]{0,200})>([^<]{0,200})/gi)) {
    const href = /\bhref\s*=\s*["']?([^"'\s>]+)/i.exec(m[1]!)?.[1] ?? '';
    if (POLICY_WORDS.test(href) || POLICY_WORDS.test(m[2]!)) return true;
  }
  for (const m of body.matchAll(/https?:\/\/[^\s"'<>)]{1,500}/g)) if (POLICY_WORDS.test(m[0])) return true;
  return false;
}

function machineReadable(v: FetchedView): boolean {
  // A 402 whose offer decodes to a price says exactly what to do: pay (prices.ts).
  if (v.status === 402 && decodeOffer(v)?.price) return true;
  const type = v.contentType.toLowerCase();
  const body = v.body.trim();
  if (!body) return false;
  if (/\bjson\b|\+json/.test(type)) {
    try {
      const doc = JSON.parse(body) as unknown;
      return doc !== null && typeof doc === 'object' && Object.keys(doc).length > 0;
    } catch {
      return false;
    }
  }
  if (/^text\/(plain|markdown)/.test(type)) return v.record.bodyBytes < SMALL && ACTIONABLE.test(body);
  return false;
}

/** The form that made a refusal readable, for the check's generation. */
function formOf(v: FetchedView): string {
  if (v.status === 402 && decodeOffer(v)?.price) return 'payment offer';
  const type = v.contentType.toLowerCase();
  if (machineReadable(v)) return /problem\+json/.test(type) ? 'problem+json' : /json/.test(type) ? 'JSON' : /markdown/.test(type) ? 'Markdown' : 'text';
  return 'policy link';
}

/** Why one refusal falls short, or null when an agent can act on it. */
export function refusalShortfall(v: FetchedView): string | null {
  const problems: string[] = [];
  if (!HONEST.has(v.status)) problems.push(v.status === 200 ? 'refuses with 200' : `status ${v.status} is not 401, 402, 403 or 429`);
  if ((v.status === 429 || v.status === 503) && !v.headers['retry-after']) problems.push(`no Retry-After on ${v.status}`);
  // Bodies over 64 KiB are not kept (gather.ts REFUSAL_BODY_MAX): no short, readable refusal is that long.
  if (!v.body && v.record.bodyBytes > 64 * 1024) problems.push(`a body of ${v.record.bodyBytes} bytes, too long to be a readable refusal`);
  else if (!machineReadable(v) && !linksPolicy(v)) problems.push(`${v.contentType.split(';')[0] || 'untyped'} body of ${v.record.bodyBytes} bytes with no machine-readable reason and no policy link`);
  return problems.length ? problems.join('; ') : null;
}

export const check: CheckDefinition = {
  id: 'access.refusal-readable', name: 'Refusals tell an agent why and what to do', category: 'access', weight: 2, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'An honest status (401, 402, 403, 429), Retry-After on 429 and 503, and a machine-readable body (JSON, RFC 9457 problem+json, short text or Markdown) or a link to a policy or licensing page',
  why: 'A bare "error code: 1010" or an HTML "Attention Required!" page leaves an agent guessing whether to retry, sign, pay or ask; a 200 that refuses is read as content (OpenAgentsInc/openagents#4721, getsentry/sentry-mcp#614). Edges let owners answer blocked crawlers with a JSON body (Cloudflare AI Crawl Control, 2025-08-27).',
  fix: 'Answer refused agents with 403 (or 401, 402, 429 with Retry-After) and a short JSON or problem+json body saying why and where to ask (a licensing or AI policy URL), or link that page from the refusal.',
  evaluate(ev) {
    const denials: Array<{ who: string; v: FetchedView }> = [];
    for (const r of ev.rows) {
      if (r.agent.tokenOnly || r.agent.contextOnly) continue;
      for (const n of r.denied) denials.push({ who: `${r.agent.token} on ${n}`, v: ev.cells[r.agent.token]![n] });
    }
    if (denials.length === 0) return inconclusive('no agent was refused: not applicable');
    // The same refusal to many agents (the usual case) is judged once.
    const memo = new Map<string, string | null>();
    const judge = (v: FetchedView) => {
      const key = JSON.stringify([v.status, v.record.bodySha256, v.contentType, v.headers['retry-after'] ?? null, v.headers['link'] ?? null, v.headers['crawler-price'] ?? null, v.headers['payment-required'] ?? null, v.headers['www-authenticate'] ?? null]);
      if (!memo.has(key)) memo.set(key, refusalShortfall(v));
      return memo.get(key)!;
    };
    const judged = denials.map((d) => ({ ...d, why: judge(d.v) }));
    const failing = judged.filter((d) => d.why !== null);
    const ok = denials.length - failing.length;
    // Which forms of a readable refusal the site uses (the "generation" a report shows beside the check).
    const forms = [...new Set(judged.filter((d) => d.why === null).map((d) => formOf(d.v)))].sort();
    const generation = forms.length ? forms.join(' + ') : 'no readable refusal';
    if (failing.length === 0) return matched(generation, partial(1000, `all ${denials.length} refusals give an honest status and a reason an agent can read`));
    // Same shortfall, one line: "GPTBot on networkA, ClaudeBot on networkA: status 403 ... ".
    const byWhy = new Map<string, string[]>();
    for (const f of failing) byWhy.set(f.why!, [...(byWhy.get(f.why!) ?? []), f.who]);
    const lines = [...byWhy].slice(0, 3).map(([why, who]) => `${who.slice(0, 4).join(', ')}${who.length > 4 ? ` and ${who.length - 4} more` : ''}: ${why}`);
    return matched(generation, partial(Math.floor((1000 * ok) / denials.length), `${failing.length} of ${denials.length} refusals an agent cannot act on (${lines.join(' | ')}${byWhy.size > 3 ? ' | …' : ''})`));
  },
};
