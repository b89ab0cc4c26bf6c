// Signing agent-readiness's own probes with Web Bot Auth as draft-ietf-webbotauth-httpsig-protocol-01
// specifies (section numbers below are that draft's), over RFC 9421 HTTP Message Signatures through
// the http-message-signatures package (RFC 9421 §2-3, including dictionary members `;key`).
//
// - Covered components (§5.2, §5.2.1): ("@authority" "signature-agent";key="sig1"): the authority
//   the request goes to, and our own member of the Signature-Agent dictionary, never the whole field.
// - Signature-Agent (§5.2.1) is an RFC 9651 Dictionary whose member value is a String holding an
//   https URL that a verifier resolves directly as a JWK Set (§5.5). Ours is the well-known URI on
//   BASE_URL's origin, the form that also names our domain (§4.5, Appendix B). Draft -00 took an
//   origin here and appended the well-known path; -01 removed that ("Make every Signature-Agent value
//   a direct JWK Set URI", Changelog), so a bare origin would now be fetched as a key set and fail.
// - Parameters (§5.2): created, expires (5 minutes; §5.2 recommends at most 24 hours), keyid = the
//   RFC 7638 §3 thumbprint (RFC 8037 Appendix A.3 for Ed25519), tag="web-bot-auth", and a fresh
//   random nonce (RFC 9421 §2.3, §7.2.2) so an origin that refuses replays never sees one from us.
// - One signature per request sent, made as it is sent (§6.9 "Agents SHOULD generate signatures for
//   the request being sent"; Appendix C.12 names "one static signature for many requests" an
//   anti-pattern): the egress calls sign() for every hop, so each network, each redirect hop and any
//   retry gets its own created and nonce, and a redirect to another authority is signed for it.
import { randomBytes, sign as ed25519Sign } from 'node:crypto';
import { httpbis } from 'http-message-signatures';
import { serializeDictionary } from 'structured-headers';
import { KEY_DIRECTORY_PATH, type ProbeKey } from './keys.ts';

/** The label of our signature, and so the key of our Signature-Agent member (§5.2.1: keyed to the signature label). */
export const SIGNATURE_LABEL = 'sig1';
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';
/** A signature is good for five minutes: long enough for a probe, short enough not to be replayed later. */
export const VALIDITY_MS = 5 * 60_000;
/** 64 random bytes, the nonce size of the draft's own test vectors (Appendix E). */
const NONCE_BYTES = 64;

/** The components every request signature covers, in the draft's order (§5.2.1). */
export const COVERED_COMPONENTS = ['@authority', `signature-agent;key="${SIGNATURE_LABEL}"`] as const;

/**
 * Our Signature-Agent member value: the key directory's https URL on BASE_URL's origin (a path in
 * BASE_URL does not move it: RFC 8615 well-known URIs live at the origin's root).
 */
export function signatureAgentUrl(baseUrl: string): string {
  const url = new URL(KEY_DIRECTORY_PATH, new URL(baseUrl).origin);
  // §5.2.1: "whose scheme MUST be https"; a verifier refuses anything else, so we never send it.
  if (url.protocol !== 'https:') throw new Error(`Web Bot Auth needs an https BASE_URL (the Signature-Agent URL must be https), not ${baseUrl}`);
  return url.href;
}

export interface SignatureInput {
  /** The URL the request goes to (its authority is signed). */
  url: string;
  key: ProbeKey;
  /** The Signature-Agent member value (see signatureAgentUrl). */
  agentUrl: string;
  created: Date;
  expires: Date;
  nonce: string;
  /** The signature label and Signature-Agent member key (default sig1). */
  label?: string;
  /** Covered components (default COVERED_COMPONENTS for the label). Tests that break one rule change these two. */
  components?: readonly string[];
  /** The whole Signature-Agent field (default: one member, `label`, holding agentUrl). */
  agentField?: string;
}

/** The three headers of one signed GET (lowercase names), every input explicit. */
export async function webBotAuthHeaders(i: SignatureInput): Promise<Record<string, string>> {
  const label = i.label ?? SIGNATURE_LABEL;
  const agent = i.agentField ?? serializeDictionary(new Map([[label, [i.agentUrl, new Map()]]]));
  const signed = await httpbis.signMessage({
    key: { id: i.key.kid, alg: 'ed25519', sign: async (data: Buffer) => ed25519Sign(null, data, i.key.privateKey) },
    name: label,
    fields: [...(i.components ?? ['@authority', `signature-agent;key="${label}"`])],
    // The order of the draft's test vectors (Appendix E.2.1), which this signer reproduces byte for byte.
    params: ['created', 'keyid', 'alg', 'expires', 'nonce', 'tag'],
    paramValues: { created: i.created, expires: i.expires, nonce: i.nonce, tag: WEB_BOT_AUTH_TAG },
  }, { method: 'GET', url: i.url, headers: { 'signature-agent': agent } });
  const h = signed.headers as Record<string, string>;
  return { 'signature-agent': agent, 'signature-input': h['Signature-Input']!, signature: h.Signature! };
}

export function newNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64');
}

export interface WebBotAuthSigner {
  /** The User-Agent both the signed and the unsigned probe carry. */
  userAgent: string;
  /** Resolves once the key is loaded; a rejection means no signed probe this scan. */
  ready(): Promise<void>;
  /** Headers that sign one GET of `url`, made now, with a nonce never used before. */
  sign(url: string): Promise<Record<string, string>>;
}

export function webBotAuthSigner(baseUrl: string, key: () => Promise<ProbeKey>, now: () => Date, userAgent: string): WebBotAuthSigner {
  const agentUrl = signatureAgentUrl(baseUrl);
  return {
    userAgent,
    ready: async () => { await key(); },
    async sign(url) {
      const created = now();
      return webBotAuthHeaders({ url, key: await key(), agentUrl, created, expires: new Date(created.getTime() + VALIDITY_MS), nonce: newNonce() });
    },
  };
}
