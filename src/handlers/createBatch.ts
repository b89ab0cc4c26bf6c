// POST /batches: a partner key's list of domains, queued on the job engine.
import { rateLimitHeaders } from '../keys/service.ts';
import type { Profile } from '../scans/types.ts';
import type { Handler } from './types.ts';

export const createBatch: Handler<'createBatch'> = async (req, res, ctx) => {
  const { keys, batches } = ctx.services;
  const caller = await keys.identify(req.get('authorization'));
  const type = req.is(['application/json', 'text/csv', 'text/plain']) || 'application/json';
  const json = type === 'application/json' ? (req.body ?? {}) as { profile?: string; label?: string } : undefined;
  const profile = (json ? json.profile : req.query.profile) as Profile | undefined;
  const label = (json ? json.label : req.query.label) as string | undefined;
  const created = await batches.create(caller, type, req.body, { ...(profile ? { profile } : {}), ...(label ? { label } : {}) });
  const links = await batches.links({ id: created.batchId, links_version: 1 });
  res.status(202).set({ Location: links.self, ...rateLimitHeaders(created.budget) }).json({
    batchId: created.batchId, status: 'queued', total: created.total, duplicates: created.duplicates, rejected: created.rejected, links,
  });
};
