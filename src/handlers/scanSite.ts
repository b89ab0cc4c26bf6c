// POST /scan: the scan service does the work; this maps HTTP in and out.
import { AppError } from '../errors.ts';
import type { Handler } from './types.ts';

/** The rubric asked for, in the body or as `?rubric=` (the contract has judged each); both only when they agree. */
function rubricOf(body: Record<string, unknown>, query: unknown): unknown {
  if (query === undefined) return body.rubric;
  if (body.rubric !== undefined && body.rubric !== query) {
    throw new AppError('BAD_REQUEST', { error: `The body asks for ${String(body.rubric)} and the query for ${String(query)}.`, hint: 'Name the rubric once, in the body or as ?rubric=.' });
  }
  return query;
}

export const scanSite: Handler<'scanSite'> = async (req, res, ctx) => {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const rubric = rubricOf(body, req.query.rubric);
  const out = await ctx.services.scans.scan({
    domain: body.domain,
    lead: body.lead,
    ...(body.fresh === true ? { fresh: true } : {}),
    ...(body.profile !== undefined ? { profile: body.profile } : {}),
    ...(body.intent !== undefined ? { intent: body.intent } : {}),
    ...(rubric !== undefined ? { rubric } : {}),
    turnstileToken: body.turnstileToken,
    // req.ip honours TRUST_PROXY (app.set('trust proxy')), so a load balancer's clients count apart.
    clientIp: req.ip ?? req.socket.remoteAddress ?? 'unknown',
  });
  res.set(out.headers).status(200).json(out.body);
};
