/**
 * aipref as of December 2026 (shared/research/discovery-2026-12.md §3):
 *   - the vocabulary, draft-ietf-aipref-vocab-08 (2026-09-13): labels `train-ai` and `search`, values `y`/`n`,
 *     unknown labels ignored. Read from the WG editor's copy of 2026-08-19 (ietf-wg-aipref/drafts), whose
 *     label table has only those two; `ai-use`, a label of earlier drafts, is still read and named as such;
 *   - the attachment, draft-ietf-aipref-attach-05: `Content-Usage` in robots.txt and as an HTTP header;
 *   - draft-kelley-aipref-training-preference-signal-00 (2026-10-30): a robots.txt group whose user-agent is a
 *     reserved `__usage_<category>` token states a usage preference, e.g. `User-agent: __usage_ai-training` +
 *     `Disallow: /` refuses AI training. Such a group is not a crawler group: no agent is ever matched against it
 *     (robots.ts leaves these tokens out of namedAgents; robots-rules.ts only matches a token equal to it, and no
 *     crawler's product token starts with `__usage_`). The draft text itself was not in our stored sources, so the
 *     category suffix is read tolerantly.
 */
import { robotsSays, type RobotsFile } from './robots.ts';

export const VOCAB_DRAFT = 'draft-ietf-aipref-vocab-08';
export const ATTACH_DRAFT = 'draft-ietf-aipref-attach-05';
export const TRAINING_SIGNAL_DRAFT = 'draft-kelley-aipref-training-preference-signal-00';
export const USAGE_PREFIX = '__usage_';

export type Use = 'training' | 'search' | 'ai-input';

/** Content-Usage labels: vocab-08's, then `ai-use` from earlier drafts. */
export const USAGE_LABELS: Readonly<Record<string, Use>> = { 'train-ai': 'training', search: 'search', 'ai-use': 'ai-input' };
/** Labels vocab-08 no longer defines but earlier drafts did (read, and said so). */
export const EARLIER_LABELS: ReadonlySet<string> = new Set(['ai-use']);

/** The category a `__usage_` token names: the signal draft's example, then the vocabulary's own labels. */
const CATEGORY: Readonly<Record<string, Use>> = { 'ai-training': 'training', 'train-ai': 'training', search: 'search', 'ai-use': 'ai-input', 'ai-input': 'ai-input' };

export const isUsageToken = (token: string): boolean => token.toLowerCase().startsWith(USAGE_PREFIX);

export interface UsageGroup {
  /** The reserved token as written, lower-cased (`__usage_ai-training`). */
  token: string;
  category: string;
  /** The use it concerns, or undefined for a category we do not know (ignored, as aipref asks of readers). */
  use?: Use;
  /** 1-based line of its user-agent line. */
  line: number;
  /** What the group's rules say about `/`: refused (Disallow: /), allowed, or only some paths refused. */
  says: 'refused' | 'allowed' | 'partial';
  /** The deciding line, when one decided. */
  ruleLine: number | null;
}

/** The training-preference groups of a parsed robots.txt, in file order. */
export function usageGroups(file: RobotsFile): UsageGroup[] {
  if (file.state !== 'parsed') return [];
  const seen = new Map<string, number>();
  file.lines.forEach((raw, i) => {
    const m = /^[ \t]*user-agent[ \t]*:[ \t]*([^\s#/]+)/i.exec(raw);
    const token = m?.[1]!.toLowerCase();
    if (token && isUsageToken(token) && !seen.has(token)) seen.set(token, i + 1);
  });
  return [...seen].map(([token, line]) => {
    // The group exists (seen above), so the matcher selects it by its own token and never falls back to `*`.
    const a = robotsSays(file, { token });
    const category = token.slice(USAGE_PREFIX.length);
    return { token, category, ...(CATEGORY[category] ? { use: CATEGORY[category] } : {}), line, says: a.says === 'blocked' ? 'refused' : a.says === 'partial' ? 'partial' : 'allowed', ruleLine: a.line };
  });
}

/** "robots.txt line 3 (User-agent: __usage_ai-training, draft-kelley-…-00)". */
export function usageGroupSource(g: UsageGroup): string {
  return `robots.txt line ${g.line} (User-agent: ${g.token}, ${TRAINING_SIGNAL_DRAFT})`;
}
