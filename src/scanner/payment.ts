/**
 * HTTP 402 offers, decoded from the wire formats in shared/research/standards-2026.md §2.6:
 *   - Cloudflare pay per crawl: `crawler-price: USD 0.01` (and `crawler-error` on refusals);
 *   - x402 v2: `PAYMENT-REQUIRED: base64(JSON {x402Version, resource, accepts[{scheme, network, asset, amount, payTo}]})`;
 *   - MPP (draft-ryan-httpauth-payment): `WWW-Authenticate: Payment id=…, method=…, intent=…`.
 * A 402 is the edge asking for a credential (payment), so the edge outcome is `auth`; the
 * offer is evidence for the notes and the reasons, never a verdict of its own.
 */

export interface PaymentOffer {
  scheme: 'pay-per-crawl' | 'x402' | 'mpp' | 'unspecified';
  /** One line for notes and reasons, e.g. "pay per crawl: USD 0.01". */
  summary: string;
}

const MAX = 200;
const clip = (s: string) => (s.length > MAX ? `${s.slice(0, MAX)}…` : s);

function x402(raw: string): string | undefined {
  try {
    const doc = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as { x402Version?: number; accepts?: Array<Record<string, unknown>> };
    const offers = (doc.accepts ?? []).slice(0, 3).map((a) => [a.scheme, a.amount ?? a.maxAmountRequired, a.asset, a.network && `on ${String(a.network)}`].filter(Boolean).join(' '));
    return `x402${doc.x402Version ? ` v${doc.x402Version}` : ''}: ${offers.length ? offers.join('; ') : 'no accepted payment listed'}`;
  } catch {
    return 'x402: PAYMENT-REQUIRED header that is not base64 JSON';
  }
}

function mpp(value: string): string | undefined {
  if (!/^\s*Payment\b/i.test(value)) return undefined;
  const params = Object.fromEntries([...value.matchAll(/([a-z]+)="?([^",]*)"?/gi)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
  const parts = ['method', 'intent', 'realm'].filter((k) => params[k]).map((k) => `${k} ${params[k]}`);
  return `MPP Payment challenge${parts.length ? `: ${parts.join(', ')}` : ''}`;
}

/** The offer a response carries, or undefined when it carries none (headers are lower-cased). */
export function paymentOffer(status: number, headers: Readonly<Record<string, string>>): PaymentOffer | undefined {
  const price = headers['crawler-price'];
  if (price) return { scheme: 'pay-per-crawl', summary: clip(`pay per crawl: ${price.trim()}`) };
  const required = headers['payment-required'];
  if (required) return { scheme: 'x402', summary: clip(x402(required.trim())!) };
  const auth = headers['www-authenticate'];
  const m = auth ? mpp(auth) : undefined;
  if (m) return { scheme: 'mpp', summary: clip(m) };
  if (status === 402) {
    const error = headers['crawler-error'];
    return { scheme: 'unspecified', summary: clip(error ? `payment required (crawler-error: ${error.trim()})` : 'payment required, no offer in the headers') };
  }
  return undefined;
}

/**
 * `/.well-known/x402`, x402's discovery document (shared/research/discovery-2026-12.md §2, as x402scan
 * docs/DISCOVERY.md reads it; draft-hawkins-x402-dns-discovery-03 defines the path, its text not read):
 * JSON `{"version": 1, "resources": ["https://…", …], "ownershipProofs": ["0x…"]}`. Decoded tolerantly:
 * resources may also be objects carrying a `resource` or `url`.
 */
export interface X402Discovery {
  state: 'present' | 'invalid';
  version?: number;
  resources: string[];
  proofs: number;
  /** One line for the check's detail. */
  summary: string;
}

export const X402_DISCOVERY_PATH = '/.well-known/x402';

export function x402Discovery(body: string): X402Discovery {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return { state: 'invalid', resources: [], proofs: 0, summary: `${X402_DISCOVERY_PATH} is not JSON` };
  }
  const d = doc as { version?: unknown; resources?: unknown; ownershipProofs?: unknown } | null;
  if (!d || typeof d !== 'object' || !Array.isArray(d.resources)) return { state: 'invalid', resources: [], proofs: 0, summary: `${X402_DISCOVERY_PATH} has no resources list` };
  const resources = d.resources.map((r: unknown) => (typeof r === 'string' ? r : r && typeof r === 'object' ? String((r as { resource?: unknown; url?: unknown }).resource ?? (r as { url?: unknown }).url ?? '') : '')).filter(Boolean);
  const version = typeof d.version === 'number' ? d.version : undefined;
  const proofs = Array.isArray(d.ownershipProofs) ? d.ownershipProofs.length : 0;
  const shown = resources.slice(0, 3).map(clip).join(', ');
  const summary = `${X402_DISCOVERY_PATH}${version !== undefined ? ` (version ${version})` : ''} lists ${resources.length} paid resource${resources.length === 1 ? '' : 's'}${shown ? ` (${shown}${resources.length > 3 ? ', …' : ''})` : ''}${proofs ? ` and ${proofs} ownership proof${proofs === 1 ? '' : 's'}` : ''}`;
  return { state: 'present', ...(version !== undefined ? { version } : {}), resources, proofs, summary };
}
