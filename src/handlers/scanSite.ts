// POST /scan: the scan service does the work; this maps HTTP in and out.
import type { Handler } from './types.ts';

export const scanSite: Handler<'scanSite'> = async (req, res, ctx) => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const out = await ctx.services.scans.scan({
    domain: body.domain,
    lead: body.lead,
    ...(body.fresh === true ? { fresh: true } : {}),
    ...(body.profile !== undefined ? { profile: body.profile } : {}),
    ...(body.intent !== undefined ? { intent: body.intent } : {}),
    turnstileToken: body.turnstileToken,
    // req.ip honours TRUST_PROXY (app.set('trust proxy')), so a load balancer's clients count apart.
    clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
  });
  res.set(out.headers).status(200).json(out.body);
};
