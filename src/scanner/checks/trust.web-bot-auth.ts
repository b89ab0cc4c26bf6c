// Standard: Web Bot Auth, draft-ietf-webbotauth-httpsig-protocol-01 (IETF webbotauth WG, 2026-10-29).
// Preview only: the draft is a WG draft and our signer is in no vendor's verified directory.
import { DENIALS } from '../classify.ts';
import type { FetchedView } from '../types.ts';
import { ALL, fail, inconclusive, matched, pass, type CheckDefinition } from './define.ts';

const decided = (v: FetchedView) => v.outcome === 'pass' || DENIALS.has(v.outcome);

export const check: CheckDefinition = {
  id: 'trust.web-bot-auth', name: 'A request signed with Web Bot Auth is not treated worse than an unsigned one', category: 'trust', weight: 3, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: 'Web Bot Auth: draft-ietf-webbotauth-httpsig-protocol-01 (https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/)',
  why: 'Cloudflare counts signed agents as verified since 2026-07-01 and Google-Agent signs experimentally: "verify, don\'t block" only works if a signature never makes the edge refuse a request it would otherwise serve (draft-ietf-webbotauth-httpsig-protocol-01; developers.cloudflare.com/bots/concepts/bot/verified-bots).',
  fix: 'Let requests carrying Signature, Signature-Input and a dictionary Signature-Agent through your WAF (or verify them against the key directory they name); if you want agents to sign, answer unsigned ones with Accept-Signature.',
  evaluate(ev) {
    if (!ev.wba) return inconclusive('this service sent no signed probe (signing is off), so Web Bot Auth readiness was not measured');
    const wba = ev.wba;
    const nets = ev.usable.filter((n) => decided(wba[n].unsigned) && decided(wba[n].signed));
    const asked = ev.usable.flatMap((n) => [wba[n].unsigned, wba[n].signed]).map((v) => v.headers['accept-signature']).find(Boolean);
    const generation = asked ? 'webbotauth-httpsig-protocol-01, origin sends Accept-Signature' : 'webbotauth-httpsig-protocol-01 (dictionary Signature-Agent)';
    if (nets.length === 0) return inconclusive('no network decided both the signed and the unsigned request');
    const worse = nets.filter((n) => wba[n].unsigned.outcome === 'pass' && wba[n].signed.outcome !== 'pass');
    if (worse.length) return matched(generation, fail(`the edge served the unsigned request but answered the signed one with ${worse.map((n) => `${wba[n].signed.outcome} on ${n}`).join(' and ')}: a signature made things worse`));
    const signedPass = nets.filter((n) => wba[n].signed.outcome === 'pass');
    if (signedPass.length === 0) {
      return matched(generation, inconclusive('the edge turned agent-readiness away signed and unsigned; our key is in no verified-bot directory, so this says nothing about registered signers'));
    }
    const better = signedPass.filter((n) => wba[n].unsigned.outcome !== 'pass');
    if (better.length) return matched(generation, pass(`the edge served the signed request where it turned the unsigned one away (${better.join(', ')}): signed agents get through`));
    return matched(generation, pass(`signed and unsigned requests were both served on ${signedPass.join(' and ')}${asked ? '; the edge asks agents to sign (Accept-Signature)' : ''}`));
  },
};
