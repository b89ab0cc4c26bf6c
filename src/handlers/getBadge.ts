// GET /badge/{domain}.svg: the latest archived scan of a domain as a small SVG.
import { AppError } from '../errors.ts';
import { preferredType } from '../http/negotiate.ts';
import { sendPrebuilt } from '../http/send.ts';
import { BADGE_CACHE_CONTROL, badgeBody, notScannedBadgeBody } from '../report/badge.ts';
import type { Handler } from './types.ts';

const BADGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

export const getBadge: Handler<'getBadge'> = async (req, res, ctx) => {
  // Routers differ on whether ".svg" stays in the parameter; accept both.
  const raw = String(req.params.domain ?? '').replace(/\.svg$/i, '');
  const reads = ctx.services.reads;
  const n = reads.badgeDomain(raw);
  // A cached scan answers without a turn of the event loop.
  const latest = n.ok ? (reads.cachedLatestSiteScan(n.domain) ?? (await reads.latestSiteScan(n.domain))) : null;
  const wantsJson = preferredType(req, ['image/svg+xml', 'application/json']) === 'application/json';
  res.vary('Accept');
  if (!latest) {
    if (wantsJson) throw new AppError('NOT_FOUND', { error: 'This domain has never completed a scan.', ...(n.ok ? { domain: n.domain } : {}) });
    res.status(404).set('Cache-Control', 'public, max-age=60').type('image/svg+xml; charset=utf-8').send(notScannedBadgeBody(ctx.services.reads.badges));
    return;
  }
  // Fixed header values set directly: res.set and res.type look the charset up per call.
  res.statusCode = 200;
  res.setHeader('Cache-Control', BADGE_CACHE_CONTROL);
  res.setHeader('Last-Modified', latest.lastModified);
  res.setHeader('Content-Security-Policy', BADGE_CSP);
  res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
  sendPrebuilt(req, res, badgeBody(latest.headline, latest.score, latest.rubric, ctx.services.reads.badges)); // If-Modified-Since: res.send's 304
};
