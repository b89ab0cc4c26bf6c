// GET /badge/{domain}.svg: the latest archived scan of a domain as a small SVG.
import { AppError } from '../errors.ts';
import { normalizeDomain } from '../net/domain.ts';
import { BADGE_CACHE_CONTROL, badgeFor, notScannedBadge } from '../report/badge.ts';
import type { Handler } from './types.ts';

export const getBadge: Handler<'getBadge'> = async (req, res, ctx) => {
  // Routers differ on whether ".svg" stays in the parameter; accept both.
  const raw = String(req.params.domain ?? '').replace(/\.svg$/i, '');
  const n = normalizeDomain(raw);
  const latest = n.ok ? await ctx.services.reads.latestSiteScan(n.domain) : null;
  const wantsJson = req.accepts(['image/svg+xml', 'application/json']) === 'application/json';
  res.vary('Accept');
  if (!latest) {
    if (wantsJson) throw new AppError('NOT_FOUND', { error: 'This domain has never completed a scan.', ...(n.ok ? { domain: n.domain } : {}) });
    res.status(404).set('Cache-Control', 'public, max-age=60').type('image/svg+xml').send(notScannedBadge(ctx.services.reads.badges));
    return;
  }
  res
    .status(200)
    .set('Cache-Control', BADGE_CACHE_CONTROL)
    .set('Last-Modified', new Date(latest.scanned_at).toUTCString())
    .set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
    .type('image/svg+xml')
    .send(badgeFor(latest.headline, latest.score, ctx.services.reads.badges));
};
