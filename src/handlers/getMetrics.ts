// GET /metrics: the Prometheus text exposition (src/metrics/registry.ts), to the operator only.
// The token is compared in constant time (src/security/compare.ts); without OPERATOR_TOKEN set,
// nothing matches and every scrape is a 401.
import { errors } from '../errors.ts';
import { secretsEqual } from '../security/compare.ts';
import type { Handler } from './types.ts';

export const getMetrics: Handler<'getMetrics'> = async (req, res, ctx) => {
  res.set('Cache-Control', 'no-store');
  const m = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
  if (!m || !secretsEqual(m[1], ctx.config.operatorToken)) {
    throw errors.unauthorized(
      'The operator token is required.',
      ctx.config.operatorToken ? 'Send `Authorization: Bearer <OPERATOR_TOKEN>`.' : 'Metrics are off on this instance: set OPERATOR_TOKEN, then scrape with it as the bearer.',
      'operator',
    );
  }
  const { contentType, text } = await ctx.services.metrics.scrape();
  res.type(contentType).send(text);
};
