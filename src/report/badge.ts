// Badges for the latest archived scan of a domain (badge-maker). Grey whenever the result is
// not a measurement to be proud or ashamed of: an `unknown` headline or a null score.
import { makeBadge } from 'badge-maker';

const COLOR: Record<string, string> = {
  open: 'brightgreen',
  'partially-blocked': 'yellow',
  contradictory: 'orange',
  'agent-hostile': 'red',
};

export const BADGE_LABEL = 'agent-ready';

/** Where drawn badges are kept: the read caches of the composition root (an LRU). */
export interface BadgeMemo {
  get(key: string): Buffer | undefined;
  set(key: string, svg: Buffer): unknown;
}

/** The badge of one report; the label names the rubric that scored it, since a number means nothing without it. */
export function badgeFor(headline: string, score: number | null, rubric: string | null): string {
  const grey = headline === 'unknown' || score === null;
  const message = score === null ? `${headline} · no score` : `${score} · ${headline}`;
  const label = rubric ? `${BADGE_LABEL} ${rubric}` : BADGE_LABEL;
  return makeBadge({ label, message, color: grey ? 'lightgrey' : (COLOR[headline] ?? 'lightgrey') });
}

export function notScannedBadge(): string {
  return makeBadge({ label: BADGE_LABEL, message: 'not scanned', color: 'lightgrey' });
}

// badge-maker lays text out on every call; the inputs are a small closed set
// (headline x score x rubric), so each badge is drawn once (bench/results.md: profile of GET /badge),
// and kept encoded: express turns a string body of 1,000 characters or more into a new
// Buffer on every send, and a badge is about 1,400.
export function badgeBody(headline: string, score: number | null, rubric: string | null, memo: BadgeMemo): Buffer {
  const key = `${headline}|${score}|${rubric}`;
  let svg = memo.get(key);
  if (svg === undefined) {
    svg = Buffer.from(badgeFor(headline, score, rubric));
    memo.set(key, svg);
  }
  return svg;
}

export function notScannedBadgeBody(memo: BadgeMemo): Buffer {
  let svg = memo.get('not-scanned');
  if (svg === undefined) {
    svg = Buffer.from(notScannedBadge());
    memo.set('not-scanned', svg);
  }
  return svg;
}

/** Short enough that a new scan shows within minutes, long enough to spare README views. */
export const BADGE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=60';
