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
  get(key: string): string | undefined;
  set(key: string, svg: string): unknown;
}

// badge-maker lays text out on every call; the inputs are a small closed set
// (headline x score), so each badge is drawn once (bench/results.md: profile of GET /badge).
export function badgeFor(headline: string, score: number | null, memo?: BadgeMemo): string {
  const key = `${headline}|${score}`;
  let svg = memo?.get(key);
  if (svg === undefined) {
    svg = drawBadge(headline, score);
    memo?.set(key, svg);
  }
  return svg;
}

function drawBadge(headline: string, score: number | null): string {
  const grey = headline === 'unknown' || score === null;
  const message = score === null ? `${headline} · no score` : `${score} · ${headline}`;
  return makeBadge({ label: BADGE_LABEL, message, color: grey ? 'lightgrey' : (COLOR[headline] ?? 'lightgrey') });
}

export function notScannedBadge(memo?: BadgeMemo): string {
  let svg = memo?.get('not-scanned');
  if (svg === undefined) {
    svg = makeBadge({ label: BADGE_LABEL, message: 'not scanned', color: 'lightgrey' });
    memo?.set('not-scanned', svg);
  }
  return svg;
}

/** Short enough that a new scan shows within minutes, long enough to spare README views. */
export const BADGE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=60';
