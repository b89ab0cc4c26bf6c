/**
 * A probable cause for each denial pattern, from evidence already held. Never a claim of
 * intent: every sentence says what the pattern is "consistent with".
 *   - a rate limit: every denial was a 429 or a vendor's rate-limit page;
 *   - a block on a network's addresses: one network's browser control was denied too;
 *   - Cloudflare's role-based default (since 2026-09-15 on new and Free-plan zones: training
 *     and agent crawlers blocked, search allowed; research/standards-2026.md): Cloudflare is
 *     named and the denials follow exactly those roles;
 *   - a rule by crawler role: the same shape of pattern without Cloudflare, or other roles;
 *   - a rule on one user-agent: one agent denied while the others received the page.
 */
import { DENIALS } from './classify.ts';
import type { ScanEvidence } from './evidence.ts';
import type { AgentRow } from './matrix.ts';
import { NETWORKS } from './types.ts';

const ROLE_WORDS: Record<string, string> = { training: 'training crawlers', 'user-fetch': 'agents fetching for a user', search: 'search crawlers', archive: 'archivers' };

function roleWords(roles: readonly string[]): string {
  const words = roles.map((r) => ROLE_WORDS[r] ?? r);
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** Sentences for the reasons; each denied row also gets its cause in its notes. */
export function probableCauses(ev: ScanEvidence, rows: readonly AgentRow[]): string[] {
  const out: string[] = [];
  const denied = rows.filter((r) => r.denied.length > 0);
  const decided = rows.filter((r) => r.decided.length > 0);
  const note = (targets: readonly AgentRow[], text: string) => { for (const r of targets) r.entry.notes.push(`probable cause: ${text}`); };

  for (const n of NETWORKS) {
    const control = ev.controls[n].outcome;
    if (DENIALS.has(control) && ev.usable.length > 0) {
      out.push(`The browser control on ${n} was met with a ${control} as well, consistent with a block on that network's addresses (their reputation) rather than on agents.`);
    }
  }
  if (denied.length === 0) return out;

  const outcomes = denied.flatMap((r) => r.denied.map((n) => r.entry.edgeDoes?.[n]));
  if (outcomes.every((o) => o === 'rate-limited')) {
    const text = 'consistent with a rate limit on requests from cloud servers rather than a rule against these agents';
    out.push(`The denials were all rate limits, ${text}.`);
    note(denied, text);
    return out;
  }

  // Roles whose every decided agent was denied, and roles whose every decided agent passed.
  const roles = [...new Set(decided.map((r) => r.agent.intent))];
  const deniedRoles = roles.filter((role) => decided.filter((r) => r.agent.intent === role).every((r) => r.denied.length > 0 && r.passed.length === 0));
  const passedRoles = roles.filter((role) => decided.filter((r) => r.agent.intent === role).every((r) => r.denied.length === 0));
  const clean = deniedRoles.length > 0 && deniedRoles.length + passedRoles.length === roles.length && passedRoles.length > 0;
  if (clean) {
    const cloudflare = denied.some((r) => r.entry.attributedVendors.includes('cloudflare'));
    const cfDefault = cloudflare && deniedRoles.includes('training') && deniedRoles.includes('user-fetch') && passedRoles.includes('search');
    const text = cfDefault
      ? 'consistent with Cloudflare\'s role-based default for AI crawlers (on new and Free-plan zones since 2026-09-15: training and agent crawlers blocked, search allowed), which a zone may carry without its owner having chosen it'
      : `consistent with a rule by crawler role: ${roleWords(deniedRoles)} denied, ${roleWords(passedRoles)} allowed`;
    out.push(`The denials follow crawler roles exactly, ${text}.`);
    note(denied, text);
    return out;
  }
  if (denied.length === 1 && decided.length >= 4) {
    const text = `consistent with a rule on the one user-agent ${denied[0]!.agent.token}`;
    out.push(`Only ${denied[0]!.agent.token} was turned away while ${decided.length - 1} other agents received the page, ${text}.`);
    note(denied, text);
  }
  return out;
}

/**
 * Does the edge treat agent-readiness's signed request (Web Bot Auth) differently from the same
 * request unsigned? One sentence per observed difference, a plain one when none, and any
 * Accept-Signature the edge sent (an origin asking agents to sign).
 */
export function signedTrafficReasons(ev: ScanEvidence): string[] {
  if (!ev.wba) return [];
  const out: string[] = [];
  const same: string[] = [];
  for (const n of ev.usable) {
    const { unsigned, signed } = ev.wba[n];
    const u = unsigned.outcome;
    const s = signed.outcome;
    if (u === s) same.push(`${n} (${u})`);
    else out.push(`On ${n} the edge answered agent-readiness's unsigned request with ${u} and the same request signed with Web Bot Auth with ${s}: it treats signed agent traffic differently.`);
  }
  if (same.length && !out.length) out.push(`Requests as agent-readiness were treated alike signed with Web Bot Auth and unsigned on ${same.join(' and ')}.`);
  const asked = [...ev.usable.flatMap((n) => [ev.wba![n].unsigned, ev.wba![n].signed, ev.controls[n]])].map((v) => v.headers['accept-signature']).find(Boolean);
  if (asked) out.push(`The edge asks agents to sign their requests (Accept-Signature: ${asked.slice(0, 200)}).`);
  return out;
}
