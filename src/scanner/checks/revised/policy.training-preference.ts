// Standard: draft-kelley-aipref-training-preference-signal-00 (robots.txt `__usage_` groups); RFC 9309 groups for
// training tokens; draft-ietf-aipref-vocab-08 (train-ai) via draft-ietf-aipref-attach-05; Content Signals; W3C TDMRep.
// The preview's definition of policy.training-preference (issue 37 item 4): same id, weight and profiles.
import { contentSignals, contentUsages } from '../../features.ts';
import { fileState } from '../../evidence.ts';
import { TRAINING_SIGNAL_DRAFT, usageGroups, usageGroupSource, VOCAB_DRAFT } from '../../aipref.ts';
import { check as current } from '../policy.training-preference.ts';
import { fail, inconclusive, matched, pass, type CheckDefinition } from '../define.ts';

const SAYS = { refused: 'refuses AI training', allowed: 'allows AI training', partial: 'refuses AI training for some paths' } as const;

export const check: CheckDefinition = {
  id: 'policy.training-preference', name: current.name, category: current.category, weight: current.weight, profiles: current.profiles, since: current.since,
  standard: `${TRAINING_SIGNAL_DRAFT} (robots.txt User-agent: __usage_ai-training); RFC 9309; ${VOCAB_DRAFT} (train-ai) in Content-Usage; Content Signals (ai-train); W3C TDMRep`,
  why: 'Publishers need an explicit, machine-readable stance on AI training; either answer passes, silence does not. Google said on 2026-10-30 it intends to support a shared training-preference signal, and the signal draft puts it in robots.txt as a reserved user-agent group.',
  fix: 'Declare it: a robots.txt group "User-agent: __usage_ai-training" with "Disallow: /" (refuse) or "Allow: /" (allow), or Content-Usage: train-ai=n|y, or a group for GPTBot, ClaudeBot, Google-Extended, Applebot-Extended or CCBot, or Content-Signal ai-train=yes|no, or a TDMRep file.',
  revision: `reads robots.txt training-preference groups (${TRAINING_SIGNAL_DRAFT}) and Content-Usage headers, and names the draft each declaration follows`,
  evaluate(ev) {
    const group = usageGroups(ev.robots).find((g) => g.use === 'training');
    if (group) return matched(`training-preference group (${TRAINING_SIGNAL_DRAFT})`, pass(`${usageGroupSource(group)} ${SAYS[group.says]}`));
    const usage = contentUsages(ev).find((u) => /(^|[\s,])train-ai\s*=/.test(u.value));
    if (usage) return matched(`aipref Content-Usage (${VOCAB_DRAFT})`, pass(`${usage.source} declares train-ai (${VOCAB_DRAFT}): ${usage.value}`));
    const named = new Set(ev.robots.namedAgents);
    const tokens = ev.roster.filter((a) => a.intent === 'training').map((a) => a.token.toLowerCase()).filter((t) => named.has(t));
    if (tokens.length) return matched('RFC 9309 groups', pass(`robots.txt has groups for ${tokens.join(', ')}`));
    if (contentSignals(ev).some((s) => /ai-train\s*=/i.test(s.value))) return matched('Content Signals', pass('Content-Signal declares ai-train'));
    if (fileState(ev.files['/.well-known/tdmrep.json']) === 'present' || ev.home?.headers['tdm-reservation'] !== undefined || ev.page?.metaTdmReservation) return matched('W3C TDMRep', pass('a TDMRep reservation is declared'));
    const other = usageGroups(ev.robots);
    const note = other.length ? ` (robots.txt has usage groups for ${other.map((g) => g.token).join(', ')}, none about training)` : '';
    if (ev.robots.state === 'unknown') return inconclusive(`robots.txt could not be read and no other declaration was found${note}`);
    return fail(`no training preference is declared: no __usage_ai-training group (${TRAINING_SIGNAL_DRAFT}), no train-ai (${VOCAB_DRAFT}), no group for a training crawler, no ai-train Content Signal, no TDMRep${note}`);
  },
};
