// Who refused each agent and what it is charged, for the report's agent grid (issue 36 items 4, 5):
// a short tag under each network's outcome, and sentences in the row's panel. Everything shown
// comes from the stored matrix entry (refusedBy, offers), escaped by the `html` tag.
import type { MatrixEntry, NetworkName } from '../scanner/types.ts';
import { partyWords } from '../scanner/parties.ts';
import { priceWords } from '../scanner/prices.ts';
import { vendorName } from '../scanner/fingerprints.ts';
import { REFUSING_PLATFORMS } from '../scanner/data/refusing-platforms.ts';
import { html, type SafeHtml } from './html.ts';

const NET_LABEL: Record<NetworkName, string> = { networkA: 'Network A', networkB: 'Network B' };
const NETS: readonly NetworkName[] = ['networkA', 'networkB'];

/** "Shopify", "Cloudflare", "site", "our network", then the price when one was asked. */
export function refusalTag(m: MatrixEntry, n: NetworkName): SafeHtml | '' {
  const p = m.refusedBy?.[n];
  const o = m.offers?.[n];
  const who = !p ? '' : p.party === 'platform' ? (REFUSING_PLATFORMS.find((x) => x.id === p.vendor)?.name ?? p.vendor ?? 'platform')
    : p.party === 'edge' ? vendorName(p.vendor ?? '') || 'edge' : p.party === 'origin' ? 'site' : 'our network';
  const price = o?.price ? (o.scheme === 'pay-per-crawl' ? `${o.currency} ${o.price}` : `${o.price} ${o.currency ?? ''}`.trim()) : '';
  if (!who && !price) return '';
  return html`<span class="by">${[who, price].filter(Boolean).join(' · ')}</span>`;
}

/** Panel lines: who refused on each network and why we say so, whether the edge asks to sign, and the price. */
export function refusalLines(m: MatrixEntry): SafeHtml | '' {
  const lines: SafeHtml[] = [];
  for (const n of NETS) {
    const p = m.refusedBy?.[n];
    const denied = ['challenge', 'block', 'rate-limited', 'auth'].includes(m.edgeDoes?.[n] ?? '');
    if (p) lines.push(html`<li>${NET_LABEL[n]}: ${partyWords(p, denied)} <span class="muted">(evidence: ${p.evidence})</span>${p.asksToSign ? html`; the edge asks agents to sign (Accept-Signature: ${p.asksToSign})` : ''}</li>`);
    const o = m.offers?.[n];
    if (o) lines.push(html`<li>${NET_LABEL[n]}: asked to pay ${priceWords(o)}</li>`);
  }
  return lines.length ? html`<ul class="refusals">${lines}</ul>` : '';
}
