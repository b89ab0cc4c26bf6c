/**
 * What each agent answered with 402 is asked to pay, decoded field by field (issue 36 item 5).
 * payment.ts gives one line for notes and the classification; this gives the parts:
 *   - Cloudflare pay per crawl: `crawler-price: USD 0.01` (currency, then price);
 *   - x402 v2: `PAYMENT-REQUIRED: base64(JSON {x402Version: 2, accepts: [{scheme, network, amount, asset, payTo, extra}]})`;
 *   - x402 v1: the same requirements in the 402's JSON body, `maxAmountRequired` for `amount`
 *     (x402-foundation/x402; x402-rs/x402-rs thinking-req.md prints both versions side by side);
 *   - MPP (draft-ryan-httpauth-payment): `WWW-Authenticate: Payment ... request="<base64url JSON {amount, currency, recipient}>"`.
 * x402 amounts are in the asset's smallest unit; only USDC and EURC (6 decimals, the assets the
 * x402 examples name in `extra.name`) are turned into a decimal price. Anything else keeps its
 * atomic amount and says so, rather than guessing decimals.
 */
import type { components } from '../../generated/api-types.ts';
import type { AgentRow } from './matrix.ts';
import { NETWORKS, type FetchedView } from './types.ts';

export type AgentOffer = components['schemas']['AgentOffer'];

const MAX = 120;
const clip = (v: unknown): string | undefined => {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v).trim();
  return s ? (s.length > MAX ? `${s.slice(0, MAX)}…` : s) : undefined;
};
const SIX_DECIMALS = new Set(['USDC', 'EURC']);

/** "10000" atomic units of a 6-decimal asset -> "0.01". */
function fromAtomic(amount: string, decimals: number): string | undefined {
  if (!/^\d{1,30}$/.test(amount)) return undefined;
  const padded = amount.padStart(decimals + 1, '0');
  const whole = padded.slice(0, -decimals).replace(/^0+(?=\d)/, '');
  const frac = padded.slice(-decimals).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}

function x402Offer(doc: { x402Version?: unknown; accepts?: unknown }, fallbackVersion: 1 | 2): AgentOffer {
  const version = doc.x402Version === 1 || doc.x402Version === 2 ? doc.x402Version : fallbackVersion;
  const first = Array.isArray(doc.accepts) ? (doc.accepts[0] as Record<string, unknown> | undefined) : undefined;
  const offer: AgentOffer = { scheme: version === 1 ? 'x402-v1' : 'x402-v2' };
  if (!first || typeof first !== 'object') return { ...offer, summary: `x402 v${version}: no accepted payment listed` };
  const amount = clip(first.amount ?? first.maxAmountRequired);
  const extra = (first.extra ?? {}) as Record<string, unknown>;
  const name = clip(extra.name);
  const asset = clip(first.asset);
  const chain = clip(first.network);
  const payee = clip(first.payTo);
  const decimal = amount && name && SIX_DECIMALS.has(name.toUpperCase()) ? fromAtomic(amount, 6) : undefined;
  if (decimal) Object.assign(offer, { price: decimal, currency: name!.toUpperCase() });
  else if (amount) Object.assign(offer, { price: amount, currency: name ?? asset ?? 'an unnamed asset', atomic: true });
  if (payee) offer.payee = payee;
  if (chain) offer.paymentNetwork = chain;
  return offer;
}

function decodeJson(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function mppOffer(value: string): AgentOffer | undefined {
  if (!/^\s*Payment\b/i.test(value)) return undefined;
  const params = Object.fromEntries([...value.matchAll(/([a-z]+)="?([^",]*)"?/gi)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
  const offer: AgentOffer = { scheme: 'mpp' };
  const request = params.request ? decodeJson(Buffer.from(params.request, 'base64url').toString('utf8')) : undefined;
  if (request) {
    const price = clip(request.amount);
    const currency = clip(request.currency);
    const payee = clip(request.recipient);
    if (price) offer.price = price;
    if (currency) offer.currency = currency;
    if (payee) offer.payee = payee;
  }
  if (!offer.price && params.method) offer.summary = `MPP Payment challenge (method ${clip(params.method)})`;
  return offer;
}

/** The decoded offer of one 402 answer (headers lower-cased); undefined for any other status. */
export function decodeOffer(view: Pick<FetchedView, 'ok' | 'status' | 'headers' | 'body' | 'contentType'>): AgentOffer | undefined {
  if (!view.ok || view.status !== 402) return undefined;
  const h = view.headers;
  const price = h['crawler-price']?.trim();
  if (price) {
    const m = /^([A-Za-z]{3})\s+(\d+(?:\.\d+)?)$/.exec(price);
    return m ? { scheme: 'pay-per-crawl', price: m[2]!, currency: m[1]!.toUpperCase() } : { scheme: 'pay-per-crawl', summary: `pay per crawl: ${clip(price)}` };
  }
  const required = h['payment-required']?.trim();
  if (required) {
    const doc = decodeJson(Buffer.from(required, 'base64').toString('utf8'));
    return doc ? x402Offer(doc, 2) : { scheme: 'x402-v2', summary: 'x402: PAYMENT-REQUIRED header that is not base64 JSON' };
  }
  const mpp = h['www-authenticate'] ? mppOffer(h['www-authenticate']) : undefined;
  if (mpp) return mpp;
  const body = /json/i.test(view.contentType) || /^\s*\{/.test(view.body.slice(0, 10)) ? decodeJson(view.body.slice(0, 64 * 1024)) : undefined;
  if (body && body.x402Version === 1 && Array.isArray(body.accepts)) return x402Offer(body, 1);
  return { scheme: 'unspecified', summary: h['crawler-error'] ? `payment required (crawler-error: ${clip(h['crawler-error'])})` : 'payment required, no offer an agent can read' };
}

const SCHEME_WORDS: Record<AgentOffer['scheme'], string> = { 'pay-per-crawl': 'pay per crawl', 'x402-v1': 'x402 v1', 'x402-v2': 'x402 v2', mpp: 'MPP', unspecified: 'no readable offer' };

/** "USD 0.01 per request (pay per crawl)", "0.01 USDC (x402 v2, to 0xabc…)", or the offer's own summary. */
export function priceWords(o: AgentOffer): string {
  if (!o.price) return `an unstated price (${o.summary ?? SCHEME_WORDS[o.scheme]})`;
  const amount = o.scheme === 'pay-per-crawl' ? `${o.currency} ${o.price} per request` : o.atomic ? `${o.price} atomic units of ${o.currency}` : `${o.price} ${o.currency ?? ''}`.trim();
  return `${amount} (${SCHEME_WORDS[o.scheme]}${o.payee ? `, payable to ${o.payee}` : ''})`;
}

/** Each 402 answer's offer on each network, on its matrix row (`offers`). */
export function attachOffers(rows: readonly AgentRow[], cells: Record<string, Record<'networkA' | 'networkB', FetchedView>>): void {
  for (const r of rows) {
    const c = cells[r.agent.token];
    if (!c) continue;
    const offers: Partial<Record<'networkA' | 'networkB', AgentOffer>> = {};
    for (const n of NETWORKS) {
      const o = decodeOffer(c[n]);
      if (o) offers[n] = o;
    }
    if (Object.keys(offers).length) r.entry.offers = offers;
  }
}

function names(items: readonly string[], max = 6): string {
  if (items.length <= 1) return items.join('');
  if (items.length > max) return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * One sentence: who is charged, how much, and who is served free ("The site charges GPTBot
 * USD 0.01 per request (pay per crawl); it serves ClaudeBot and 24 more free."). Agents with the
 * same price are named together; "free" means every decided cell passed.
 */
export function priceReason(rows: readonly AgentRow[]): string | null {
  const charged = new Map<string, string[]>();
  for (const r of rows) {
    const o = r.entry.offers?.networkA ?? r.entry.offers?.networkB;
    if (!o) continue;
    const w = priceWords(o);
    charged.set(w, [...(charged.get(w) ?? []), r.agent.token]);
  }
  if (charged.size === 0) return null;
  const free = rows.filter((r) => !r.agent.tokenOnly && !r.agent.contextOnly && r.passed.length > 0 && r.denied.length === 0).map((r) => r.agent.token);
  const parts = [...charged].map(([w, agents]) => `${names(agents)} ${w}`);
  return `The site charges ${parts.join('; ')}${free.length ? `; it serves ${names(free, 1)} free` : '; no agent measured was served free'}.`;
}
