// Standard: IETF aipref (draft-ietf-aipref-vocab-08, draft-ietf-aipref-attach-05), robots.txt training-preference groups
// (draft-kelley-aipref-training-preference-signal-00) and Cloudflare Content Signals.
// Preview: all are drafts; the check reads them side by side and against robots.txt's crawler groups.
import type { Intent } from '../roster.ts';
import { ALL, fail, inconclusive, matched, pass, rowsOf, type CheckDefinition } from './define.ts';
import type { ScanEvidence } from '../evidence.ts';
import { contentSignals, contentUsages } from '../features.ts';
import { EARLIER_LABELS, TRAINING_SIGNAL_DRAFT, USAGE_LABELS, usageGroups, usageGroupSource, VOCAB_DRAFT, type Use } from '../aipref.ts';

interface Pref { use: Use; allowed: boolean; source: string }

/** Label → use, per vocabulary. Content Signals: search, ai-input, ai-train; aipref (vocab-08): train-ai, search (ai-use from earlier drafts). */
const SIGNAL: Record<string, Use> = { search: 'search', 'ai-input': 'ai-input', 'ai-train': 'training' };
const USAGE: Readonly<Record<string, Use>> = USAGE_LABELS;
/** Which agents' robots.txt answers a preference about a use is compared with. */
const INTENTS: Record<Use, Intent[]> = { training: ['training'], search: ['search'], 'ai-input': ['user-fetch'] };

function parse(value: string, vocab: 'signal' | 'usage', source: string, out: Pref[]): string | undefined {
  // aipref attaches a path in robots.txt ("Content-Usage: /docs/ train-ai=n"); only site-wide preferences are compared.
  const m = /^(\/\S*)\s+(.*)$/.exec(value.trim());
  if (m && m[1] !== '/') return undefined;
  for (const part of (m ? m[2]! : value).split(',').map((p) => p.trim()).filter(Boolean)) {
    const kv = /^([a-z][a-z0-9-]*)\s*=\s*([a-z]+)$/i.exec(part);
    if (!kv) return `${source}: "${part}" is not label=value`;
    const label = kv[1]!.toLowerCase();
    const v = kv[2]!.toLowerCase();
    if (vocab === 'signal' && label === 'use') continue; // Cloudflare's use=immediate|reference|full carries no yes/no
    const use = (vocab === 'signal' ? SIGNAL : USAGE)[label];
    const ok = vocab === 'signal' ? /^(yes|no)$/.test(v) : /^(y|n)$/.test(v);
    if (!ok) return `${source}: "${part}" must be ${vocab === 'signal' ? 'yes or no' : 'y or n'}`;
    if (!use) continue; // vocabularies are still moving: an unknown label is ignored, as aipref asks of readers
    out.push({ use, allowed: v.startsWith('y'), source });
  }
  return undefined;
}

function robotsFor(ev: ScanEvidence, use: Use): 'allowed' | 'blocked' | 'mixed' | 'none' {
  const says = rowsOf(ev, INTENTS[use]).map((r) => r.robots.says).filter((s) => s === 'allowed' || s === 'blocked');
  if (says.length === 0) return 'none';
  return says.every((s) => s === 'blocked') ? 'blocked' : says.every((s) => s === 'allowed') ? 'allowed' : 'mixed';
}

export const check: CheckDefinition = {
  id: 'policy.preferences-agree', name: 'Content-Usage and Content-Signal parse and agree with each other and with robots.txt', category: 'policy', weight: 3, profiles: ALL, since: 'rubric-v1.2-preview',
  standard: `draft-ietf-aipref-vocab-08 and draft-ietf-aipref-attach-05 (https://datatracker.ietf.org/wg/aipref/); ${TRAINING_SIGNAL_DRAFT} (robots.txt __usage_ groups); Content Signals Policy (https://contentsignals.org/)`,
  why: 'Google said on 2026-10-30 it intends to honour the shared training-preference signal (developers.google.com/crawling/docs/changelog); a preference that grants what robots.txt refuses, or two vocabularies that say opposite things, leaves agents to guess.',
  fix: 'State each use once and consistently: a robots.txt training-preference group (User-agent: __usage_ai-training), Content-Usage (train-ai, search = y|n) and Content-Signal (ai-train, ai-input, search = yes|no) should say the same, and never grant a use to agents that robots.txt disallows.',
  evaluate(ev) {
    const prefs: Pref[] = [];
    const label = (source: string, field: string) => (source.startsWith('robots.txt') ? `${source} (${field})` : `the ${source}`);
    const sources: Array<[string, string, 'signal' | 'usage']> = [
      ...contentSignals(ev).map((s): [string, string, 'signal'] => [s.value, label(s.source, 'Content-Signal'), 'signal']),
      ...contentUsages(ev).map((s): [string, string, 'usage'] => [s.value, label(s.source, 'Content-Usage'), 'usage']),
    ];
    // Training-preference groups state a use by robots.txt rules: Disallow: / refuses it, a group that allows / grants it.
    const groups = usageGroups(ev.robots).filter((g) => g.use && g.says !== 'partial');
    if (sources.length === 0 && groups.length === 0) return inconclusive(`no Content-Usage (${VOCAB_DRAFT}), Content-Signal or training-preference group (${TRAINING_SIGNAL_DRAFT}) is published: nothing to compare (not applicable)`);
    const vocabs = new Set<string>(sources.map((s) => s[2]));
    if (groups.length) vocabs.add('group');
    const names = [vocabs.has('group') ? 'training-preference group' : '', vocabs.has('usage') ? `aipref Content-Usage (vocab-08)` : '', vocabs.has('signal') ? 'Content Signals' : ''].filter(Boolean);
    const generation = vocabs.size === 2 && vocabs.has('usage') && vocabs.has('signal') ? 'aipref Content-Usage and Content Signals' : names.length === 1 && vocabs.has('signal') ? 'Content Signals (Cloudflare)' : names.join(' + ');
    for (const [value, source, vocab] of sources) {
      const bad = parse(value, vocab, source, prefs);
      if (bad) return matched(generation, fail(`${bad} (read per ${vocab === 'usage' ? VOCAB_DRAFT : 'the Content Signals Policy'})`));
    }
    for (const g of groups) prefs.push({ use: g.use!, allowed: g.says === 'allowed', source: usageGroupSource(g) });
    const earlier = sources.filter(([v, , vocab]) => vocab === 'usage' && [...EARLIER_LABELS].some((l) => new RegExp(`(^|[\\s,])${l}\\s*=`).test(v)));
    const earlierNote = earlier.length ? `; ${earlier[0]![1]} uses ai-use, a label of aipref vocab drafts before -08 (read as ai-input)` : '';
    const problems: string[] = [];
    for (const use of ['training', 'search', 'ai-input'] as const) {
      const said = prefs.filter((p) => p.use === use);
      const yes = said.find((p) => p.allowed);
      const no = said.find((p) => !p.allowed);
      if (yes && no) problems.push(`${yes.source} allows ${use} while ${no.source} refuses it`);
      else if (yes && robotsFor(ev, use) === 'blocked') problems.push(`${yes.source} allows ${use} but robots.txt disallows every ${INTENTS[use].join('/')} agent`);
    }
    if (problems.length) return matched(generation, fail(`${problems.join('; ')} (read per ${VOCAB_DRAFT}${groups.length ? ` and ${TRAINING_SIGNAL_DRAFT}` : ''})${earlierNote}`));
    return matched(generation, pass(`${prefs.length} site-wide preference(s) parse and agree with robots.txt (read per ${VOCAB_DRAFT}${groups.length ? ` and ${TRAINING_SIGNAL_DRAFT}` : ''})${earlierNote}`));
  },
};
