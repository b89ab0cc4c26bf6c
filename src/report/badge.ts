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

// badge-maker lays text out on every call; the inputs are a small closed set
// (headline x score), so each badge is drawn once (bench/results.md: profile of GET /badge).
const drawn = new Map<string, string>();
const MAX_DRAWN = 1024;

export function badgeFor(headline: string, score: number | null): string {
  const key = `${headline}|${score}`;
  let svg = drawn.get(key);
  if (svg === undefined) {
    svg = drawBadge(headline, score);
    if (drawn.size < MAX_DRAWN) drawn.set(key, svg);
  }
  return svg;
}

function drawBadge(headline: string, score: number | null): string {
  const grey = headline === 'unknown' || score === null;
  const message = score === null ? `${headline} · no score` : `${score} · ${headline}`;
  return makeBadge({ label: BADGE_LABEL, message, color: grey ? 'lightgrey' : (COLOR[headline] ?? 'lightgrey') });
}

let notScanned: string | undefined;

export function notScannedBadge(): string {
  notScanned ??= makeBadge({ label: BADGE_LABEL, message: 'not scanned', color: 'lightgrey' });
  return notScanned;
}

/** Short enough that a new scan shows within minutes, long enough to spare README views. */
export const BADGE_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=60';
