/**
 * Who refused each agent and what each is asked to pay (issue 36 items 4, 5), as text lines under
 * the matrix: agents refused alike are named together. Reads only the report (refusedBy, offers),
 * so the CLI bundle carries no fingerprint or platform tables.
 */
import type { ScanReport } from './api.ts';

type Entry = ScanReport['matrix'][number];
type Party = NonNullable<NonNullable<Entry['refusedBy']>['networkA']>;
type Offer = NonNullable<NonNullable<Entry['offers']>['networkA']>;

const PLATFORM: Record<string, string> = { shopify: 'Shopify', zendesk: 'Zendesk', wix: 'Wix', squarespace: 'Squarespace', webflow: 'Webflow' };

function partyText(p: Party): string {
  if (p.party === 'platform') return `refused by the ${PLATFORM[p.vendor ?? ''] ?? p.vendor ?? 'hosting'} platform's bot rules, not by your site`;
  if (p.party === 'edge') return `refused by the site's edge${p.vendor ? ` (${p.vendor})` : ''}`;
  if (p.party === 'origin') return 'refused by the site\'s own server';
  return 'not measured: our own network failed (never counted against the site)';
}

function offerText(o: Offer): string {
  if (!o.price) return o.summary ?? 'a payment without a readable price';
  const scheme = { 'pay-per-crawl': 'pay per crawl', 'x402-v1': 'x402 v1', 'x402-v2': 'x402 v2', mpp: 'MPP', unspecified: '' }[o.scheme];
  return `${o.scheme === 'pay-per-crawl' ? `${o.currency} ${o.price} per request` : `${o.price} ${o.currency ?? ''}`.trim()} (${scheme}${o.payee ? `, to ${o.payee}` : ''})`;
}

const names = (a: string[]) => (a.length <= 6 ? a.join(', ') : `${a.slice(0, 6).join(', ')} and ${a.length - 6} more`);

export function refusalLines(matrix: readonly Entry[]): string[] {
  const groups = new Map<string, string[]>();
  const add = (line: string, ua: string) => groups.set(line, [...(groups.get(line) ?? []), ua]);
  for (const e of matrix) {
    for (const n of ['networkA', 'networkB'] as const) {
      const p = e.refusedBy?.[n];
      // A party is named for a denial; an unmeasured cell only when our own network failed.
      const denied = e.edgeDoes && ['challenge', 'block', 'rate-limited', 'auth'].includes(e.edgeDoes[n]);
      // Who answered a cell that was neither a pass nor a denial (a 5xx, a reset) stays in the JSON and the report page.
      if (p && (denied || p.party === 'network')) add(`${n}: ${partyText(p)} (${p.evidence})${p.asksToSign ? `; the edge asks agents to sign (Accept-Signature: ${p.asksToSign})` : ''}`, e.ua);
      const o = e.offers?.[n];
      if (o) add(`${n}: asked to pay ${offerText(o)}`, e.ua);
    }
  }
  return [...groups].map(([line, agents]) => `${names(agents)} — ${line}`);
}
