// GET /changes: a page of the key's watches' readiness.changed events after a cursor (src/feed/service.ts).
import { rateLimitHeaders } from '../keys/service.ts';
import { errors } from '../errors.ts';
import { LIMIT_DEFAULT, LIMIT_MAX } from '../feed/service.ts';
import type { Handler } from './types.ts';

export const listChanges: Handler<'listChanges'> = async (req, res, ctx) => {
  const { keys, changes } = ctx.services;
  const caller = await keys.identify(req.get('authorization'));
  const since = typeof req.query.since === 'string' ? req.query.since : undefined;
  const raw = req.query.limit;
  // The validator has checked it already; read again here, as a number, for the handler's own sake.
  const limit = raw === undefined ? LIMIT_DEFAULT : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMIT_MAX) throw errors.badRequest(`\`limit\` must be a whole number from 1 to ${LIMIT_MAX}.`);
  const page = await changes.list(caller, since, limit);
  if (caller.kind === 'partner') res.set(rateLimitHeaders(await keys.peek(caller.key.keyId)));
  res.set('Cache-Control', 'no-store').json(page);
};
