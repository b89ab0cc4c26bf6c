// Standard: RFC 9309 groups for training tokens; Content Signals ai-train; draft-ietf-aipref-vocab train-ai; W3C TDMRep.
import { ALL, fail, inconclusive, pass, type CheckDefinition } from './define.ts';
import { contentSignals } from '../features.ts';
import { fileState } from '../evidence.ts';

export const check: CheckDefinition = {
  id: 'policy.training-preference', name: 'A training preference is declared', category: 'policy', weight: 3, profiles: ALL, since: 'rubric-v1.0',
  standard: 'RFC 9309; Content Signals (ai-train); draft-ietf-aipref-vocab (train-ai); W3C TDMRep',
  why: 'Publishers need an explicit, machine-readable stance on AI training; either answer passes, silence does not.',
  fix: 'Declare it: a group for GPTBot, ClaudeBot, Google-Extended, Applebot-Extended or CCBot, or Content-Signal ai-train=yes|no, or a TDMRep file.',
  evaluate(ev) {
    const named = new Set(ev.robots.namedAgents);
    const tokens = ev.roster.filter((a) => a.intent === 'training').map((a) => a.token.toLowerCase()).filter((t) => named.has(t));
    if (tokens.length) return pass(`robots.txt has groups for ${tokens.join(', ')}`);
    if (contentSignals(ev).some((s) => /ai-train\s*=/i.test(s.value))) return pass('Content-Signal declares ai-train');
    if (ev.robots.extensions.some((e) => e.field === 'content-usage' && /train-ai\s*=/i.test(e.value))) return pass('Content-Usage declares train-ai');
    if (fileState(ev.files['/.well-known/tdmrep.json']) === 'present' || ev.home?.headers['tdm-reservation'] !== undefined || ev.page?.metaTdmReservation) return pass('a TDMRep reservation is declared');
    if (ev.robots.state === 'unknown') return inconclusive('robots.txt could not be read and no other declaration was found');
    return fail('no training preference is declared');
  },
};
