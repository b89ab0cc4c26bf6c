/**
 * The world's A2A card signer (A2A v1.0.0 §8.4), written apart from the scanner's verifier on
 * purpose: it builds the JWS by hand with node:crypto (RFC 7515 §5.1: BASE64URL(header) '.'
 * BASE64URL(payload), Ed25519 per RFC 8037 §3.1) and serialises JCS with its own few lines
 * (RFC 8785 §3.2: keys sorted by UTF-16 code units, ES JSON.stringify for strings and integers),
 * where the scanner uses `canonicalize` and `jose`. test/world/a2a-signing.test.ts checks this
 * signer against RFC 8037 Appendix A.4's published JWS, byte for byte.
 *
 * The key is RFC 8037 Appendix A.1's published Ed25519 test key (never a secret).
 */
import { createPrivateKey, sign } from 'node:crypto';

export const RFC8037_KEY = { kty: 'OKP', crv: 'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' } as const;

/** RFC 8785 for the JSON this world writes (objects, arrays, strings, integers, booleans, null). */
export function jcs(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(jcs).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${jcs(x)}`).join(',')}}`;
  }
  if (typeof v === 'number' && !Number.isInteger(v)) throw new Error('the world signs integers only');
  return JSON.stringify(v);
}

/** A JWS over `payload` (compact; `detached` leaves the payload out, RFC 7515 Appendix F). */
export function signJws(header: Record<string, unknown>, payload: Buffer, key: { d: string; x: string } = RFC8037_KEY, detached = false): { protected: string; signature: string; compact: string } {
  const prot = Buffer.from(JSON.stringify(header)).toString('base64url');
  const input = `${prot}.${payload.toString('base64url')}`;
  const privateKey = createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d: key.d, x: key.x }, format: 'jwk' });
  const signature = sign(null, Buffer.from(input, 'ascii'), privateKey).toString('base64url');
  return { protected: prot, signature, compact: detached ? `${prot}..${signature}` : `${input}.${signature}` };
}

/** The card with `signatures` added: one detached JWS over the JCS form of the card as given. */
export function signCard(card: Record<string, unknown>, header: Record<string, unknown>): Record<string, unknown> {
  const { protected: prot, signature } = signJws(header, Buffer.from(jcs(card), 'utf8'), RFC8037_KEY, true);
  return { ...card, signatures: [{ protected: prot, signature }] };
}

/** The public JWK Set the jku points at. */
export function jwks(kid: string): { keys: Array<Record<string, string>> } {
  return { keys: [{ kty: 'OKP', crv: 'Ed25519', x: RFC8037_KEY.x, kid, use: 'sig', alg: 'EdDSA' }] };
}
