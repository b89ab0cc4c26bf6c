// Standard: HTTP 402 offers: Cloudflare pay per crawl, x402 v2 (x402-foundation/x402 specs/transports-v2/http.md), MPP (draft-ryan-httpauth-payment);
// x402 discovery (/.well-known/x402, issue 37 item 3), decoded beside the offers.
import { fileState } from '../evidence.ts';
import { paymentOffer, x402Discovery, X402_DISCOVERY_PATH, type X402Discovery } from '../payment.ts';
import type { ScanEvidence } from '../evidence.ts';
import type { FetchedView } from '../types.ts';
import { ALL, fail, inconclusive, matched, partial, pass, type CheckDefinition } from './define.ts';

/** The site's x402 discovery document, when it serves one (absent, or unreadable: undefined). */
function discovery(ev: ScanEvidence): X402Discovery | undefined {
  const v = ev.files[X402_DISCOVERY_PATH];
  return v && fileState(v) === 'present' ? x402Discovery(v.body) : undefined;
}

const NAMES = { 'pay-per-crawl': 'Cloudflare pay per crawl', x402: 'x402', mpp: 'MPP', unspecified: 'no offer' } as const;

export const check: CheckDefinition = {
  id: 'access.payment-offers', name: 'A 402 answer carries an offer an agent can read', category: 'access', weight: 2, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'HTTP 402 with Cloudflare pay per crawl (crawler-price), x402 v2 (PAYMENT-REQUIRED) or MPP (WWW-Authenticate: Payment); x402 discovery at /.well-known/x402 (x402scan docs/DISCOVERY.md)',
  why: 'Paid access settled on three wire formats in 2026; an agent that is asked to pay can only decide if the 402 says what, how much and how, and a bare 402 reads as a block (developers.cloudflare.com/ai-crawl-control/features/pay-per-crawl; x402-foundation/x402 specs/transports-v2/http.md; tempoxyz/mpp-specs).',
  fix: 'Answer 402 with a machine-readable offer: crawler-price (pay per crawl), PAYMENT-REQUIRED with base64 JSON {x402Version: 2, accepts: [...]} (x402 v2), or WWW-Authenticate: Payment (MPP).',
  evaluate(ev) {
    const views: Array<{ who: string; v: FetchedView }> = [];
    for (const [token, nets] of Object.entries(ev.cells)) for (const v of Object.values(nets)) views.push({ who: token, v });
    for (const v of Object.values(ev.controls)) views.push({ who: 'the browser control', v });
    const paid = views.filter(({ v }) => v.ok && v.status === 402);
    // The discovery document is read beside the offers: it names what is for sale, the 402 says how to pay.
    const disc = discovery(ev);
    const discNote = disc ? `; x402 discovery: ${disc.summary}` : '';
    const discGen = disc?.state === 'present' ? ' + x402 discovery (/.well-known/x402)' : '';
    if (paid.length === 0) {
      const none = inconclusive(`no request was answered with 402: not applicable${discNote}`);
      return disc?.state === 'present' ? matched('x402 discovery (/.well-known/x402)', none) : none;
    }
    const offers = paid.map(({ who, v }) => ({ who, offer: paymentOffer(v.status, v.headers)! }));
    const readable = offers.filter((o) => o.offer.scheme !== 'unspecified' && !/not base64 JSON|no accepted payment/.test(o.offer.summary));
    const schemes = [...new Set(readable.map((o) => (o.offer.scheme === 'x402' ? o.offer.summary.split(':')[0]! : NAMES[o.offer.scheme])))].sort();
    const generation = `${schemes.length ? schemes.join(' + ') : 'bare 402'}${discGen}`;
    const agents = [...new Set(paid.map((p) => p.who))];
    const charged = ev.rows.filter((r) => r.agent.intent === 'user-fetch' && agents.includes(r.agent.token)).map((r) => r.agent.token);
    const userNote = charged.length ? `; user-fetch agents are asked to pay (${charged.slice(0, 5).join(', ')}), so people asking an assistant about the site are charged too` : '';
    if (readable.length === paid.length) return matched(generation, pass(`${paid.length} answer(s) with 402 carry a readable offer (${readable[0]!.offer.summary})${discNote}${userNote}`));
    if (readable.length === 0) return matched(generation, fail(`${paid.length} answer(s) with 402 carry no readable offer (${offers[0]!.offer.summary})${discNote}${userNote}`));
    return matched(generation, partial(Math.floor((1000 * readable.length) / paid.length), `${readable.length} of ${paid.length} answers with 402 carry a readable offer${discNote}${userNote}`));
  },
};
