// Standard: Content Signals Policy (contentsignals.org, draft-romm-aipref-contentsignals); draft-ietf-aipref-attach Content-Usage.
import { robotsSays } from '../robots.ts';
import { contentSignals, signalGrants } from '../features.ts';
import { ALL, fail, pass, skipped, type CheckDefinition } from './define.ts';

const SIGNAL_KEYS = new Set(['search', 'ai-input', 'ai-train', 'use']);

function badSignal(value: string): string | undefined {
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([a-z-]+)\s*=\s*([a-z]+)$/i.exec(part);
    if (!m) return `"${part}" is not key=value`;
    const key = m[1]!.toLowerCase();
    if (!SIGNAL_KEYS.has(key)) return `unknown key "${key}"`;
    if (key !== 'use' && !/^(yes|no)$/i.test(m[2]!)) return `"${part}" must be yes or no`;
  }
  return undefined;
}

function badUsage(value: string): string | undefined {
  // Content-Usage: [path] label=y|n, ...  (unknown labels are tolerated while the vocabulary settles)
  const prefs = value.replace(/^\/\S*\s+/, '');
  for (const part of prefs.split(',').map((p) => p.trim()).filter(Boolean)) {
    if (!/^[a-z][a-z0-9-]*\s*=\s*(y|n)$/i.test(part)) return `"${part}" is not label=y|n`;
  }
  return undefined;
}

export const check: CheckDefinition = {
  id: 'policy.usage-signals-valid', name: 'Usage signals parse and agree with robots.txt', category: 'policy', weight: 3, profiles: ALL, since: 'rubric-v1.0',
  standard: 'Content Signals Policy (draft-romm-aipref-contentsignals); draft-ietf-aipref-attach',
  why: 'A malformed or self-contradicting usage signal is worse than none: agents either ignore it or read the opposite of what was meant.',
  fix: 'Write Content-Signal as comma-separated key=yes|no pairs (search, ai-input, ai-train) and do not grant search to a group that disallows everything.',
  evaluate(ev) {
    const signals = contentSignals(ev);
    const usage = ev.robots.extensions.filter((e) => e.field === 'content-usage');
    if (!signals.length && !usage.length) return skipped('no Content-Signal or Content-Usage is published');
    for (const s of signals) {
      const bad = badSignal(s.value);
      if (bad) return fail(`${s.source}: ${bad}`);
    }
    for (const u of usage) {
      const bad = badUsage(u.value);
      if (bad) return fail(`robots.txt line ${u.line}: ${bad}`);
    }
    const wildcard = robotsSays(ev.robots, { token: '*' });
    if (wildcard.says === 'blocked' && signals.some((s) => signalGrants(s.value, 'search'))) {
      return fail(`Content-Signal grants search while robots.txt disallows / for every agent (line ${wildcard.line})`);
    }
    return pass(`${signals.length + usage.length} usage signal(s) parse cleanly`);
  },
};
