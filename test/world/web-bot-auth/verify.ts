// The world's strict Web Bot Auth verifier for one request: RFC 9421 §3.2 with the requirements of
// draft-ietf-webbotauth-httpsig-protocol-01 (sections below are the draft's unless marked RFC).
// It is an edge that enforces every rule the draft puts on a signer, so a probe that cuts a corner
// is refused with a named reason rather than let through by a lenient verifier:
//
//   - tag "web-bot-auth" (§5.2; §5.4 lets a verifier discard others);
//   - @authority (or @target-uri) and the signer's own Signature-Agent member covered
//     ("signature-agent";key="<label>", §5.2.1); the whole field is not the member;
//   - created, expires, keyid and a nonce present; created not in the future, expires not passed,
//     at most 24 hours between them (§5.2 RECOMMENDED, enforced here), alg if any "ed25519";
//   - Signature-Agent an RFC 9651 Dictionary (the legacy bare String refused: "Signers MUST send the
//     dictionary form", §5.2.1) whose member is a String holding an absolute https URI without
//     parameters (a member with parameters is ignored, so nothing is left to resolve);
//   - the key found by (member URL, keyid) in the directory that URL resolves to (§5.4, §5.5);
//   - a nonce seen before answered as a replay (§5.3: "MAY ... respond with 429"; RFC 9421 §7.2.2).
import { isInnerList, parseItem, type BareItem, type InnerList } from 'structured-headers';
import type { KeyObject } from 'node:crypto';
import { componentsOf, dictionary, ed25519Verifies, invalid, Refusal, seconds, signatureBase, signatureBytes, unverified, type MessageParts } from './base.ts';

export type Outcome = 'verified' | 'invalid' | 'unverified' | 'replayed' | 'unsigned';
export interface Verdict { outcome: Outcome; reason: string; detail?: string; agent?: string; keyid?: string; nonce?: string }

/** Allowed clock skew for `created` (RFC 9421 §3.2.1 leaves the tolerance to the verifier). */
export const SKEW_S = 60;
/** §5.2: "It is RECOMMENDED that expires be no more than 24 hours after created." */
export const MAX_LIFETIME_S = 24 * 3600;

export interface VerifyDeps {
  nowMs: () => number;
  /** Keys published at `url` (resolved as §5.5 says), by keyid; a Refusal when discovery fails. */
  keysAt(url: string, keyid: string): Promise<KeyObject>;
  /** Atomic check-and-record (Appendix C.6): false when the nonce was already used. */
  recordNonce(nonce: string, untilMs: number): boolean;
}

const str = (v: BareItem | undefined): string | undefined => (typeof v === 'string' ? v : undefined);

/** §5.2.1: the Signature-Agent member for `label`, as an https URL, or a named refusal. */
export function agentMember(field: string | undefined, label: string): string {
  if (field === undefined) throw invalid('signature-agent-absent', 'a signed request MUST carry Signature-Agent (§4.3, §5.2.1)');
  let dict;
  try {
    dict = dictionary(field, 'signature-agent');
  } catch (err) {
    // A String Item begins with a double quote: the legacy form a verifier MAY accept and signers MUST NOT send (§5.2.1).
    try {
      if (typeof parseItem(field)[0] === 'string') throw invalid('signature-agent-legacy-string', 'Signature-Agent is a bare String; signers MUST send the Dictionary form (§5.2.1)');
    } catch (e) {
      if (e instanceof Refusal) throw e;
    }
    throw err;
  }
  const member = dict.get(label);
  if (member === undefined) throw invalid('signature-agent-member-missing', `Signature-Agent has no member ${label}, the signature's label (§5.2.2)`);
  if (isInnerList(member) || typeof member[0] !== 'string') throw invalid('signature-agent-member-not-a-string', 'member values MUST be String Items (§5.2.1)');
  if (member[1].size > 0) throw unverified('signature-agent-member-has-parameters', 'a verifier MUST ignore a member that carries parameters (§5.2.1); none is left to resolve');
  let url: URL;
  try {
    url = new URL(member[0]);
  } catch {
    throw unverified('signature-agent-member-not-a-uri', `${member[0]} is not an absolute URI (§5.2.1)`);
  }
  if (url.protocol !== 'https:') throw invalid('signature-agent-member-not-https', `${member[0]}: the scheme MUST be https (§5.2.1)`);
  return member[0];
}

/** Verify one request. `message` carries @authority etc. and the request's fields (lowercase names). */
export async function verifyRequest(message: MessageParts, deps: VerifyDeps): Promise<Verdict> {
  const f = message.fields;
  if (f['signature'] === undefined && f['signature-input'] === undefined) return { outcome: 'unsigned', reason: 'no-signature' };
  try {
    if (f['signature'] === undefined || f['signature-input'] === undefined) throw invalid('incomplete-signature-headers', 'Signature and Signature-Input come together (RFC 9421 §4)');
    const inputs = dictionary(f['signature-input'], 'signature-input');
    const signatures = dictionary(f['signature'], 'signature');
    const ours = [...inputs].filter((e): e is [string, InnerList] => isInnerList(e[1]) && e[1][1].get('tag') === 'web-bot-auth');
    if (!ours.length) throw unverified('no-web-bot-auth-signature', 'no signature is tagged web-bot-auth (§5.2, §5.4)');
    let last: Verdict | undefined;
    // §5.2.2: each signature is verified on its own; every one must hold.
    for (const [label, list] of ours) {
      last = await verifyOne(label, list, signatures, message, deps);
      if (last.outcome !== 'verified') return last;
    }
    return last!;
  } catch (err) {
    if (err instanceof Refusal) return { outcome: err.outcome, reason: err.reason, detail: err.message };
    return { outcome: 'invalid', reason: 'verifier-error', detail: String(err) };
  }
}

async function verifyOne(label: string, list: InnerList, signatures: ReturnType<typeof dictionary>, message: MessageParts, deps: VerifyDeps): Promise<Verdict> {
  const components = componentsOf(list);
  const params = list[1];
  // §5.2: at least one of @authority and @target-uri.
  if (!components.some((c) => c.name === '@authority' || c.name === '@target-uri')) throw invalid('authority-not-covered', 'neither @authority nor @target-uri is covered (§5.2)');
  // §5.2.1: the member keyed to the signature's own label is covered, not the whole field, not another member.
  const agentComponents = components.filter((c) => c.name === 'signature-agent');
  if (!agentComponents.some((c) => c.params.get('key') === label)) {
    if (agentComponents.some((c) => !c.params.has('key'))) throw invalid('whole-field-coverage', `"signature-agent" is covered as a whole field; the member "signature-agent";key="${label}" MUST be (§5.2.1)`);
    if (agentComponents.length) throw invalid('member-not-own-label', `the covered Signature-Agent member is not ${label}, the signature's label (§5.2.1, §5.2.2)`);
    throw invalid('signature-agent-not-covered', `"signature-agent";key="${label}" is not covered (§5.2.1)`);
  }
  // §5.2 parameters; RFC 9421 §3.2.1 lets the application refuse what its policy does not accept.
  const created = seconds(params, 'created', 'created-missing');
  const expires = seconds(params, 'expires', 'expires-missing');
  const keyid = str(params.get('keyid'));
  if (!keyid) throw invalid('keyid-missing', 'keyid is required (§5.2)');
  const nonce = str(params.get('nonce'));
  if (!nonce) throw invalid('nonce-missing', 'this site requires a nonce to refuse replays (RFC 9421 §7.2.2)');
  const alg = params.get('alg');
  if (alg !== undefined && alg !== 'ed25519') throw invalid('alg-not-ed25519', `alg ${String(alg)} does not match the Ed25519 key (RFC 9421 §3.3.6)`);
  const now = Math.floor(deps.nowMs() / 1000);
  if (created > now + SKEW_S) throw invalid('created-in-future', `created ${created} is ${created - now} s ahead of this site's clock (RFC 9421 §3.2.1)`);
  if (expires <= now) throw invalid('expired', `expires ${expires} passed ${now - expires} s ago (RFC 9421 §2.3, §3.2.1)`);
  if (expires <= created) throw invalid('expires-before-created', 'expires is not after created');
  if (expires - created > MAX_LIFETIME_S) throw invalid('lifetime-over-24h', `expires is ${expires - created} s after created (§5.2 recommends at most 24 hours)`);

  const agent = agentMember(message.fields['signature-agent'], label);
  const sig = signatureBytes(signatures, label);
  const base = signatureBase(components, list, message);
  const key = await deps.keysAt(agent, keyid);
  if (!ed25519Verifies(key, base, sig)) throw invalid('bad-signature', 'the signature does not verify over this request (wrong authority, altered member, or another key)');
  // Recorded only once the signature holds, so a forged request cannot spend a real nonce.
  if (!deps.recordNonce(nonce, expires * 1000)) return { outcome: 'replayed', reason: 'nonce-reused', detail: 'this nonce was used before (§5.3: answered with 429)', agent, keyid, nonce };
  return { outcome: 'verified', reason: 'verified', agent, keyid, nonce };
}
