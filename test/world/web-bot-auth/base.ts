// RFC 9421 pieces the world's strict verifier needs, written from the RFC text and NOT from the
// signing library (src/signing uses http-message-signatures; this uses only structured-headers,
// an RFC 9651 parser, and node:crypto). Section numbers are RFC 9421's unless they say otherwise.
import { createHash, createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import { isInnerList, parseDictionary, serializeInnerList, serializeItem, type BareItem, type Dictionary, type InnerList, type Item } from 'structured-headers';

/** One verification failure, named: what the world tells a test that asks why (never the signer). */
export class Refusal extends Error {
  readonly outcome: 'invalid' | 'unverified';
  readonly reason: string;
  constructor(outcome: 'invalid' | 'unverified', reason: string, detail = reason) {
    super(detail);
    this.outcome = outcome;
    this.reason = reason;
  }
}

export const invalid = (reason: string, detail?: string) => new Refusal('invalid', reason, detail);
export const unverified = (reason: string, detail?: string) => new Refusal('unverified', reason, detail);

/** RFC 9651 §4.2 Dictionary, or a named refusal. */
export function dictionary(value: string, what: string): Dictionary {
  try {
    return parseDictionary(value);
  } catch (err) {
    throw invalid(`${what}-unparsable`, `${what}: ${(err as Error).message}`);
  }
}

/** One covered component (§2): its name (an sf-string) and parameters, as listed in Signature-Input. */
export interface Component { name: string; params: Map<string, BareItem>; id: string }

/** §2, §2.5: the covered components of one signature, each an sf-string once, lowercase field names. */
export function componentsOf(list: InnerList): Component[] {
  const seen = new Set<string>();
  return list[0].map((item: Item) => {
    const [name, params] = item;
    if (typeof name !== 'string') throw invalid('component-not-a-string', `a covered component must be an sf-string (§2), not ${String(name)}`);
    if (name !== name.toLowerCase()) throw invalid('component-not-lowercase', `covered field names are lowercase (§2.1): ${name}`);
    const id = serializeItem(item);
    // §2.5: each component identifier appears once; a repeated one means no signature base can be made.
    if (seen.has(id)) throw invalid('duplicate-component', `${id} is covered twice (§2.5)`);
    seen.add(id);
    return { name, params, id };
  });
}

/** What §2.2 derived components and §2.1 fields are read from. */
export interface MessageParts {
  /** Request: method, authority (Host), path and query as received. Response: status. */
  method?: string;
  authority?: string;
  path?: string;
  query?: string;
  /** Lowercase field name -> field value as received (combined with ", " by the HTTP stack). */
  fields: Record<string, string | undefined>;
  /** The request a response answers, for components flagged `req` (§2.4). */
  request?: MessageParts;
}

/** §2.2.3: the authority, lowercased, without the default port of https. */
export function normalAuthority(authority: string): string {
  return authority.toLowerCase().replace(/:443$/, '');
}

function componentValue(c: Component, message: MessageParts): string {
  let m = message;
  if (c.params.has('req')) {
    // §2.4: `req` reads the component from the request a response answers; a request has none.
    if (!message.request) throw invalid('req-on-request', `${c.id}: req is only meaningful on a response (§2.4)`);
    m = message.request;
  }
  for (const p of c.params.keys()) if (!['req', 'key'].includes(p)) throw invalid('unsupported-component-parameter', `${c.id}: parameter ${p} is not supported by this verifier`);
  if (c.name.startsWith('@')) {
    if (c.params.has('key')) throw invalid('key-on-derived-component', `${c.id}: key applies to fields only (§2.1.2)`);
    switch (c.name) {
      case '@authority': if (m.authority !== undefined) return normalAuthority(m.authority); break; // §2.2.3
      case '@method': if (m.method !== undefined) return m.method.toUpperCase(); break; // §2.2.1
      case '@path': if (m.path !== undefined) return m.path || '/'; break; // §2.2.6
      case '@query': if (m.path !== undefined) return m.query ? `?${m.query}` : '?'; break; // §2.2.7
      case '@target-uri': if (m.authority !== undefined) return `https://${normalAuthority(m.authority)}${m.path ?? '/'}${m.query ? `?${m.query}` : ''}`; break; // §2.2.2
      default: throw invalid('unsupported-derived-component', `${c.name} is not supported by this verifier`);
    }
    throw invalid('component-not-in-message', `${c.name} cannot be derived from this message`);
  }
  const raw = m.fields[c.name];
  if (raw === undefined) throw invalid('covered-field-absent', `${c.name} is covered but absent (§2.5)`);
  const key = c.params.get('key');
  if (key === undefined) return raw.trim(); // §2.1: the field value, leading and trailing whitespace removed
  // §2.1.2: the named member of a Dictionary field, re-serialized with its parameters.
  if (typeof key !== 'string') throw invalid('key-not-a-string', `${c.id}: key must be an sf-string (§2.1.2)`);
  const member = dictionary(raw, c.name).get(key);
  if (member === undefined) throw invalid('covered-member-absent', `${c.name} has no member ${key} (§2.1.2)`);
  return isInnerList(member) ? serializeInnerList(member) : serializeItem(member);
}

/** §2.5: the signature base, ending with "@signature-params" (the inner list re-serialized, §2.3). */
export function signatureBase(components: readonly Component[], list: InnerList, message: MessageParts): string {
  const lines = components.map((c) => `${c.id}: ${componentValue(c, message)}`);
  lines.push(`"@signature-params": ${serializeInnerList(list)}`);
  return lines.join('\n');
}

/** The signature entry for `label` in the Signature field: a Byte Sequence (§4.2). */
export function signatureBytes(signatures: Dictionary, label: string): Buffer {
  const entry = signatures.get(label);
  if (!entry || isInnerList(entry) || !(entry[0] instanceof ArrayBuffer)) throw invalid('signature-missing', `no byte-sequence signature labelled ${label} (§4.2)`);
  return Buffer.from(entry[0]);
}

/** §3.3.6: EdDSA over the signature base bytes. */
export function ed25519Verifies(key: KeyObject, base: string, signature: Buffer): boolean {
  return cryptoVerify(null, Buffer.from(base), key, signature);
}

export interface Ed25519Jwk { kty: 'OKP'; crv: 'Ed25519'; x: string }

/** RFC 7638 §3.2 with RFC 8037 Appendix A.3: {"crv","kty","x"} in that order, no whitespace, SHA-256, base64url. */
export function thumbprint(jwk: Ed25519Jwk): string {
  return createHash('sha256').update(`{"crv":"${jwk.crv}","kty":"${jwk.kty}","x":"${jwk.x}"}`).digest('base64url');
}

export function publicKeyOf(jwk: Ed25519Jwk): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
}

/** Integer seconds of a signature parameter, or a named refusal. */
export function seconds(params: Map<string, BareItem>, name: string, reasonIfMissing: string): number {
  const v = params.get(name);
  if (v === undefined) throw invalid(reasonIfMissing, `${name} is required`);
  if (typeof v !== 'number' || !Number.isInteger(v)) throw invalid(`${name}-not-an-integer`, `${name} must be an integer (RFC 9421 §2.3)`);
  return v;
}
